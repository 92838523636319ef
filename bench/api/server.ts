/**
 * A benchmark server in its own process (so autocannon in the parent does not share its event loop).
 *
 *   babel-node bench/api/server.ts --mode real  --db sqlite|pg
 *       the REAL application: buildApp() over the bench database, as `npm start` runs it minus the
 *       logger (and without the web client unless --web). It also records the SQL each request sends (driver level), served
 *       at /__bench/capture, so the floor can run exactly the same statements.
 *   babel-node bench/api/server.ts --mode floor --db sqlite|pg --scenarios file.json
 *       the floor: bare Fastify, one route per scenario, running that scenario's captured SQL with
 *       cached prepared statements (better-sqlite3) or a pg.Pool of 10 — no auth, validation or envelope.
 *
 * Prints `READY <port>` when listening.
 */
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { PreparedNames } from '../../server/db/dialect';
import { parseFlags, PG_SCHEMA, PG_URL, SQLITE_FILE, strFlag } from '../lib/args';

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/** JSON cannot carry bigint: tag it. */
const enc = (v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v);
const dec = (v: unknown) =>
  v && typeof v === 'object' && '$bigint' in (v as object) ? BigInt((v as { $bigint: string }).$bigint) : v;

let capturing = false;
const captured: CapturedQuery[] = [];

function wrapStatement(text: string, stmt: SQLite.Statement) {
  for (const m of ['all', 'run', 'get', 'iterate'] as const) {
    const orig = (stmt as any)[m];
    (stmt as any)[m] = function (...args: unknown[]) {
      if (capturing) captured.push({ sql: text, params: (Array.isArray(args[0]) ? args[0] : args).map(enc) });
      return orig.apply(this, args);
    };
  }
  return stmt;
}

/**
 * Records every statement the real server runs while capturing is on. The server keeps its prepared
 * statements (server/db/dialect.ts `withStatementCache`), so every statement is wrapped when prepared
 * and records only while `capturing` is set.
 */
function installCapture() {
  const proto = SQLite.prototype as unknown as { prepare: (sql: string) => SQLite.Statement };
  const prepare = proto.prepare;
  proto.prepare = function (this: SQLite.Database, text: string) {
    return wrapStatement(text, prepare.call(this, text));
  };
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
    if (capturing && typeof args[0] === 'string') {
      captured.push({ sql: args[0], params: ((args[1] as unknown[]) ?? []).map(enc) });
    } else if (capturing && args[0] && typeof (args[0] as { text?: unknown }).text === 'string') {
      // A prepared statement (server/db/dialect.ts names them): { name, text, values }.
      const q = args[0] as { text: string; values?: unknown[] };
      captured.push({ sql: q.text, params: (q.values ?? []).map(enc) });
    }
    return query.apply(this, args);
  };
}

async function real(db: 'sqlite' | 'pg', web: boolean) {
  installCapture();
  // Imported after the capture hooks are in place.
  const { buildApp } = await import('../../server/app');
  const { createDb } = await import('../../server/db/dialect');
  const { loadConfig } = await import('../../server/config');
  const { systemClock } = await import('../../server/clock');
  const url = db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL;
  const handle = createDb(url, { pgSchema: db === 'pg' ? PG_SCHEMA : undefined });
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: url }), demoData: false };
  const app = await buildApp({
    ctx: {
      db: handle.db,
      kind: handle.kind,
      config,
      clock: systemClock,
      reader: handle.reader,
      dbSource: handle.source,
    },
    web,
  });
  app.post('/__bench/capture', async (req) => {
    const on = (req.body as { on?: boolean } | undefined)?.on === true;
    const out = captured.splice(0);
    capturing = on;
    return { queries: out };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

async function floor(db: 'sqlite' | 'pg', file: string) {
  const scenarios = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, CapturedQuery[]>;
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => 'ok');
  if (db === 'sqlite') {
    const database = new SQLite(SQLITE_FILE, { readonly: false });
    database.pragma('journal_mode = WAL');
    database.pragma('cache_size = -65536');
    for (const [name, queries] of Object.entries(scenarios)) {
      const stmts = queries.map((q) => ({ stmt: database.prepare(q.sql), params: q.params.map(dec) }));
      app.get(`/floor/${name}`, async () =>
        stmts.map((s) => (s.stmt.reader ? s.stmt.all(s.params) : s.stmt.run(s.params))),
      );
    }
  } else {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 10, options: `-c search_path=${PG_SCHEMA}` });
    pool.on('connect', (client) => {
      client.query('set plan_cache_mode = force_custom_plan').catch(() => undefined);
    });
    const names = new PreparedNames();
    for (const [name, queries] of Object.entries(scenarios)) {
      // Prepared like the real server's (server/db/dialect.ts): the floor must not pay planning it does not.
      const qs = queries.map((q) => ({ name: names.nameOf(q.sql), text: q.sql, values: q.params.map(dec) }));
      app.get(`/floor/${name}`, async () => {
        const out = [];
        for (const q of qs) out.push((await pool.query(q)).rows);
        return out;
      });
    }
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

async function main() {
  const flags = parseFlags();
  const mode = strFlag(flags, 'mode', 'real');
  const db = strFlag(flags, 'db', 'sqlite') as 'sqlite' | 'pg';
  const app = mode === 'real' ? await real(db, flags.web === true) : await floor(db, strFlag(flags, 'scenarios', ''));
  const addr = app.server.address();
  process.stdout.write(`READY ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
  process.on('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
