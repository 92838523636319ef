/**
 * The one `build()` every server test uses. It runs on SQLite (in memory) by default and on
 * PostgreSQL when TEST_DATABASE_URL is set, in a schema of its own per test file so Jest workers
 * never share tables. The clock is manual: tests move time instead of sleeping.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, loggerOptions } from '../../server/app';
import { ManualClock } from '../../server/clock';
import { loadConfig, type Config } from '../../server/config';
import { createDb, dropPgSchema, type Db } from '../../server/db/dialect';
import { migrateToLatest } from '../../server/db/migrate';
import { ensureSuperAdmin, syncPermissions } from '../../server/seed/bootstrap';

export const PG_URL = process.env.TEST_DATABASE_URL;
export const dbKind = PG_URL ? 'postgres' : 'sqlite';
export const ADMIN_PASSWORD = 'Lz-console 2026';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  /** Logs in and returns the token. */
  login(username?: string, password?: string): Promise<string>;
  /** Calls the API and returns the parsed envelope. */
  call<T = any>(
    method: 'GET' | 'POST',
    url: string,
    opts?: { token?: string; body?: unknown; query?: Record<string, any> },
  ): Promise<{ code: number; msg: string; data: T }>;
  close(): Promise<void>;
}

let counter = 0;

export async function build(
  opts: {
    config?: Partial<Config>;
    logStream?: { write(msg: string): void };
    clock?: ManualClock;
    /**
     * SQLite only: a database file (removed on close) instead of memory, so that the app gets a
     * reader connection for its exports (Db.reader) as the server has.
     */
    onFile?: boolean;
  } = {},
): Promise<TestApp> {
  const schema = PG_URL ? `t_${process.pid}_${Date.now().toString(36)}_${counter++}` : undefined;
  const dir = !PG_URL && opts.onFile ? fs.mkdtempSync(path.join(os.tmpdir(), 'lz-test-db-')) : undefined;
  const db = createDb(PG_URL ?? (dir ? `sqlite:${path.join(dir, 'test.db')}` : 'sqlite::memory:'), {
    pgSchema: schema,
    poolSize: 20,
  });
  await migrateToLatest(db.db);
  await syncPermissions(db.db);
  const clock = opts.clock ?? new ManualClock();
  await ensureSuperAdmin(db.db, clock.now(), ADMIN_PASSWORD);
  // Exports run in the request's thread unless a test asks for workers (a worker compiles the server's
  // source anew: seconds per export under Jest); __tests__/server/export/worker.test.ts runs them.
  const config: Config = { ...loadConfig({}, '/tmp/lz-test'), demoData: false, exportWorkers: false, ...opts.config };
  const app = await buildApp({
    ctx: { db: db.db, kind: db.kind, config, clock, reader: db.reader, dbSource: db.source },
    logger: opts.logStream ? loggerOptions('info', opts.logStream) : false,
    web: false,
  });
  await app.ready();
  const call: TestApp['call'] = async (method, url, o = {}) => {
    const res: LightMyRequestResponse = await app.inject({
      method,
      url,
      query: o.query,
      payload: o.body as any,
      headers: o.token ? { authorization: o.token } : {},
    });
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} for ${method} ${url}: ${res.body}`);
    return res.json();
  };
  const t: TestApp = {
    app,
    db,
    clock,
    config,
    call,
    async login(username = 'admin', password = ADMIN_PASSWORD) {
      const r = await call('POST', '/v1/admin/user/login', { body: { username, password } });
      if (r.code !== 200) throw new Error(`login failed: ${r.code} ${r.msg}`);
      return r.data.token;
    },
    async close() {
      await app.close();
      await db.close();
      if (PG_URL && schema) await dropPgSchema(PG_URL, schema);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}
