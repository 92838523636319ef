/**
 * Everything that differs between SQLite and PostgreSQL lives here: connection, integer parsing,
 * column types for migrations, row locks, and reading rows as arrays. The rest of the server writes
 * one query for both.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  type Compilable,
  PostgresDialect,
  SqliteDialect,
  sql,
  type ColumnDataType,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import pino from 'pino';
import type { Database } from './schema';

export type DialectKind = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  kind: DialectKind;
  close(): Promise<void>;
}

/**
 * pg returns int8 as text. Ids, times (epoch ms) and counts fit a double, so they become numbers;
 * a value that would not fit throws instead of rounding. Money never takes this path: repositories
 * select money columns as text (see `money()` in ./sql.ts) and turn them into bigint.
 */
function safeInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} does not fit a number; select it as text`);
  return n;
}
pg.types.setTypeParser(20, safeInt8);

export interface CreateDbOptions {
  /** PostgreSQL only: work inside this schema (created when missing); tests use one per file. */
  pgSchema?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * PostgreSQL `application_name` of this pool's connections (an `application_name` in the URL wins).
   * Without it, one set in the URL or PGAPPNAME, else the schema when there is one (tests find their
   * own backends by it), else the program's name and process id (pg_stat_activity tells two server
   * processes apart).
   */
  applicationName?: string;
  /** Where lost connections are reported; the app hands over its own logger (setDbLog). */
  log?: DbLog;
}

/** The part of a pino / Fastify logger the database layer writes to. */
export interface DbLog {
  warn(obj: object, msg: string): void;
}

/** Until the app hands over its logger (setDbLog): the same JSON lines, from a logger of our own. */
let fallbackLog: DbLog | undefined;
const defaultLog = (): DbLog => (fallbackLog ??= pino({ name: 'db', level: process.env.LOG_LEVEL ?? 'info' }));

/** The log of each pool createDb made, by its Kysely instance (see setDbLog). */
const logs = new WeakMap<Kysely<any>, { log: DbLog }>();

/** Sends this database's connection reports to `log` (the app's logger, once it exists). */
export function setDbLog(db: Kysely<any>, log: DbLog): void {
  const holder = logs.get(db);
  if (holder) holder.log = log;
}

/** What a report says about a connection error: never the statement's parameters. */
const errSummary = (err: unknown) => {
  const e = err as { message?: string; code?: string } | null;
  return { message: e?.message ?? String(err), ...(e?.code ? { code: e.code } : {}) };
};

export function createDb(url: string, opts: CreateDbOptions = {}): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('cache_size = -65536');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
    return { db, kind: 'sqlite', close: () => db.destroy() };
  }
  const schema = opts.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const holder = { log: opts.log ?? defaultLog() };
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    ...(opts.applicationName
      ? { application_name: opts.applicationName }
      : { fallback_application_name: schema ?? `lz-admin-console-${process.pid}` }),
    // A connection whose peer vanished without a word (a failover, a dropped NAT entry) is found out
    // by TCP keepalive instead of hanging the request that next uses it.
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection can die at any time (pg_terminate_backend, a restart, a failover, a proxy's idle
  // timeout). pg reports it as an 'error' event: on the pool for an idle connection, on the client
  // for one checked out — and an 'error' event nobody listens to ends the process. The pool has already
  // dropped an idle one; a checked-out one fails its query (that request answers 500) and is dropped
  // when released, as it is no longer queryable. Each client logs its loss once, in the listener below.
  pool.on('error', () => undefined);
  if (schema) {
    // Every new connection must find its schema; create it once, before the first query — again on
    // the next connect if the database was unreachable (a rejected promise would stay rejected).
    let ready: Promise<void> | undefined;
    const createSchema = async () => {
      const c = new pg.Client({ connectionString: url, fallback_application_name: schema });
      c.on('error', () => undefined); // a lost connection fails the pending call below instead
      await c.connect();
      try {
        await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } finally {
        await c.end();
      }
    };
    const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
      ready ??= createSchema().catch((err: unknown) => {
        ready = undefined;
        throw err;
      });
      await ready;
      return connect();
    };
  }
  // Prepared statements save each connection re-parsing a statement, but their plans stay custom (made
  // with the values): a generic plan of `… limit $1` expects a tenth of the table and can be a parallel
  // seq scan and sort (measured on the bench schema for the member page), and PostgreSQL's switch to it
  // compares costs it cannot see are wrong.
  pool.on('connect', (client) => {
    let reported = false;
    client.on('error', (err) => {
      if (reported) return;
      reported = true;
      holder.log.warn({ err: errSummary(err) }, 'PostgreSQL connection lost; it leaves the pool');
    });
    client.query('set plan_cache_mode = force_custom_plan').catch(() => undefined);
  });
  const connectClient = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const names = new PreparedNames();
  (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () =>
    withPreparedStatements(await connectClient(), names);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  logs.set(db, holder);
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Prepared statements kept per SQLite connection, least recently used first out. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which costs more than running most of them (a
 * page of 20 rows: ~1 ms of a request's ~1.7 ms CPU, docs/performance.md). This wraps the connection
 * so that `prepare` hands back the statement already compiled for the same SQL text, unless that one is
 * busy (an `iterate()` still open: a stream reading it); then a fresh one serves this call. Statements
 * carry no state between calls here (nobody calls raw(), pluck() or safeIntegers() on them, but for
 * the `raw(true)` fixed at preparation on texts marked by selectArrays), and the cache is bounded
 * because `in (?, ?, …)` lists make a text per length.
 */
export function withStatementCache(database: SQLite.Database, size = STATEMENT_CACHE_SIZE) {
  const cache = new Map<string, SQLite.Statement>();
  // A statement marked by selectArrays answers arrays; its text (marker included) is its own cache key.
  const fresh = (text: string) => {
    const stmt = database.prepare(text);
    return text.startsWith(ARRAY_ROWS) ? stmt.raw(true) : stmt;
  };
  return {
    prepare(sqlText: string): SQLite.Statement {
      // Kysely opens a transaction with a plain (deferred) `begin`: it reads first and asks for the
      // write lock at its first write, and when another process on the same file wrote in between,
      // SQLite cannot wait (the snapshot is stale) and answers SQLITE_BUSY at once — a 500. An
      // immediate transaction takes the write lock at `begin`, where busy_timeout lets it wait its
      // turn. In one process nothing changes: Kysely runs one transaction at a time on its connection.
      const text = sqlText === 'begin' ? 'begin immediate' : sqlText;
      const hit = cache.get(text);
      if (hit) {
        if (hit.busy) return fresh(text);
        cache.delete(text); // re-inserted below: most recently used last
        cache.set(text, hit);
        return hit;
      }
      const stmt = fresh(text);
      cache.set(text, stmt);
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
      return stmt;
    },
    close(): void {
      cache.clear();
      database.close();
    },
  };
}

/** Statement texts that get a server-side prepared statement, per process. */
export const PREPARED_STATEMENTS_MAX = 400;

/**
 * Names for the statements PostgreSQL should keep prepared: `s` + a hash of the text, for the first
 * PREPARED_STATEMENTS_MAX distinct data statements this process sends (the app has a few hundred
 * shapes; `in (…)` lists of other lengths beyond the cap simply run unprepared). DDL and transaction
 * control are never prepared.
 */
export class PreparedNames {
  private readonly names = new Map<string, string>();
  nameOf(text: string): string | undefined {
    const hit = this.names.get(text);
    if (hit !== undefined) return hit;
    if (this.names.size >= PREPARED_STATEMENTS_MAX || !/^\s*(select|insert|update|delete|with)\b/i.test(text)) {
      return undefined;
    }
    const name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}

const PREPARED = Symbol('prepared statements');

/**
 * Sends Kysely's queries as named (prepared) statements on this connection: PostgreSQL parses and
 * analyses a statement once per connection instead of on every request (plans stay custom: see the
 * pool's `plan_cache_mode`). Patched once per pooled client.
 */
function withPreparedStatements(client: pg.PoolClient, names: PreparedNames): pg.PoolClient {
  const c = client as pg.PoolClient & { [PREPARED]?: true };
  if (c[PREPARED]) return client;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (c as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && Array.isArray(args[1]) && args.length === 2) {
      const text = args[0];
      // Marked by selectArrays: rows as arrays, and unnamed — planned with its values each time. An
      // export's keyset batch (`… where id < $1 order by id desc limit $2`) would get a generic plan
      // that expects a third of the table: a parallel Gather Merge starting two workers per batch
      // (measured: PostgreSQL's CPU for a million-row export 4.6 → 6.8 s, and the server's up too).
      if (text.startsWith(ARRAY_ROWS)) return query({ text, values: args[1], rowMode: 'array' });
      const name = names.nameOf(text);
      if (name) return query({ name, text, values: args[1] });
    }
    return query(...args);
  };
  c[PREPARED] = true;
  return client;
}

/**
 * The comment selectArrays puts in front of a statement's text: "answer this one's rows as arrays"
 * (SQLite: withStatementCache prepares it `raw`; PostgreSQL: withPreparedStatements runs it with
 * `rowMode: 'array'`, unnamed).
 */
const ARRAY_ROWS = '/* array rows */ ';

/**
 * Runs a select and answers its rows as arrays, values in the order of its columns: no object per row
 * (better-sqlite3 `raw(true)`, pg `rowMode: 'array'`), which is most of what reading a row costs.
 * For reads of many rows (an export's batches); the query is built and compiled as any other. It goes
 * through Kysely's executor, so it takes the connection as every query does (SQLite's one connection is
 * never used in the middle of another request's transaction), and works inside a transaction.
 * The caller types the tuple to match its select list.
 */
export async function selectArrays<Row extends readonly unknown[]>(
  db: Kysely<any> | Transaction<any>,
  query: Compilable,
): Promise<Row[]> {
  const compiled = query.compile();
  const { rows } = await db.executeQuery<unknown>({ ...compiled, sql: ARRAY_ROWS + compiled.sql });
  // A connection made elsewhere than createDb ignores the marker: same values, one slower step.
  if (rows.length > 0 && !Array.isArray(rows[0])) return rows.map((r) => Object.values(r as object) as unknown as Row);
  return rows as unknown as Row[];
}

export function dialectOf(db: Kysely<unknown>): DialectKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column types for migrations. */
export function types(db: Kysely<unknown>) {
  const isPg = dialectOf(db) === 'postgres';
  return {
    /** Auto-increment primary key: BIGSERIAL on PostgreSQL, INTEGER PRIMARY KEY on SQLite. */
    id: (isPg ? 'bigserial' : 'integer') as ColumnDataType,
    isPg,
  };
}

/** `FOR UPDATE` where the database has row locks; SQLite serialises writers, so nothing is needed. */
export function forUpdate<T extends { forUpdate(): T }>(qb: T, db: Kysely<unknown> | Transaction<unknown>): T {
  return dialectOf(db) === 'postgres' ? qb.forUpdate() : qb;
}

/**
 * `FOR NO KEY UPDATE` where the database has row locks: serialises writers of the row without blocking
 * the `FOR KEY SHARE` lock a foreign key takes when a child row (a bill) is inserted, so locking a member
 * cannot deadlock against a balance change of the same member. SQLite serialises writers anyway.
 */
export function forNoKeyUpdate<T extends { forNoKeyUpdate(): T }>(
  qb: T,
  db: Kysely<unknown> | Transaction<unknown>,
): T {
  return dialectOf(db) === 'postgres' ? qb.forNoKeyUpdate() : qb;
}

/** A unique index refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Drops a test schema (PostgreSQL) — used by the test helper only. */
export async function dropPgSchema(url: string, schema: string) {
  const c = new pg.Client({ connectionString: url, fallback_application_name: schema });
  c.on('error', () => undefined); // a lost connection fails the pending call below instead
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await c.end();
  }
}

export { sql };
