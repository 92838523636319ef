/**
 * Everything that differs between SQLite and PostgreSQL lives here (with ./statements.ts, what each
 * connection does to its statements, and ./pgPool.ts, PostgreSQL's pools): connection, integer
 * parsing, column types for migrations, row locks. The rest of the server writes one query for both.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type ColumnDataType,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import pino from 'pino';
import type { Database } from './schema';
import { createPgSchema, pgPool, type DbLog } from './pgPool';
import { PreparedNames, setGenericPlanDb, withStatementCache } from './statements';

export { dropPgSchema, type DbLog } from './pgPool';

export {
  PREPARED_STATEMENTS_MAX,
  PreparedNames,
  selectArrays,
  STATEMENT_CACHE_SIZE,
  withStatementCache,
} from './statements';

export type DialectKind = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  kind: DialectKind;
  close(): Promise<void>;
  /**
   * SQLite on a file only: a read-only connection of its own for a long scan (an export), with a
   * small page cache, closed by the caller. The scan then neither fills the main connection's 64 MB
   * cache (its RSS, and the hot pages the API needs, which a million-row scan would push out) nor
   * holds it: measured on the order export, the peak RSS 303 → 227 MB at the same speed.
   */
  reader?: () => Db;
  /**
   * How another thread opens this same database (an export worker, server/export/send.ts): a SQLite
   * file or a PostgreSQL URL and schema. None for SQLite in memory, which no other thread can see.
   */
  source?: DbSource;
}

/** What openReader needs to reach a database createDb opened. */
export interface DbSource {
  url: string;
  pgSchema?: string;
}

/**
 * A connection for one long read in another thread (an export worker): a read-only SQLite connection
 * with a small page cache, or a PostgreSQL pool of one connection in the same schema (its generic-plan
 * pool opens none: the worker runs no session lookup).
 */
export function openReader(source: DbSource): Db {
  if (source.url.startsWith('sqlite:')) return sqliteReader(source.url.slice('sqlite:'.length));
  return createDb(source.url, { pgSchema: source.pgSchema, poolSize: 1 });
}

/** Page cache of a reader connection: a sequential scan gains nothing from more (the OS caches the file). */
const READER_CACHE_KIB = 4096;

function sqliteReader(file: string): Db {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  database.pragma(`cache_size = -${READER_CACHE_KIB}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const close = async () => {
    await db.destroy();
    // Kysely closes the connection only if it ran a query: an export refused before its first read
    // (a bad date range) would leave the file open until the handle is garbage-collected.
    if (database.open) database.close();
  };
  return { db, kind: 'sqlite', close };
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
    return {
      db,
      kind: 'sqlite',
      close: () => db.destroy(),
      ...(file === ':memory:' ? {} : { reader: () => sqliteReader(file), source: { url: `sqlite:${file}` } }),
    };
  }
  const schema = opts.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const holder = { log: opts.log ?? defaultLog() };
  // Every new connection must find its schema; create it once, before the first query — again on the
  // next connect if the database was unreachable (a rejected promise would stay rejected).
  let ready: Promise<void> | undefined;
  const ensureSchema = async () => {
    if (!schema) return;
    ready ??= createPgSchema(url, schema).catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    await ready;
  };
  const names = new PreparedNames();
  const poolSize = opts.poolSize ?? 10;
  const pool = (mode: 'custom' | 'generic', max: number) =>
    pgPool({ url, schema, applicationName: opts.applicationName, holder, ensureSchema, names, mode, max });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool('custom', poolSize) }) });
  // The session lookup every request makes (readWithGenericPlan) runs on a few connections that stay in
  // generic-plan mode: planned once per connection, and no connection's mode switched for it.
  const genericDb = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: pool('generic', Math.max(1, Math.ceil(poolSize / 2))) }),
  });
  setGenericPlanDb(db, genericDb);
  logs.set(db, holder);
  return {
    db,
    kind: 'postgres',
    close: async () => {
      // Both closed whatever either answers; the first failure is reported after.
      const closed = await Promise.allSettled([db.destroy(), genericDb.destroy()]);
      for (const c of closed) if (c.status === 'rejected') throw c.reason;
    },
    source: { url, ...(schema ? { pgSchema: schema } : {}) },
  };
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

export { sql };

/**
 * `FOR SHARE` where the database has row locks: many readers hold it together, a writer of the row
 * waits for them (a purchase holds its product so that taking it off shelf waits for the purchase).
 */
export function forShare<T extends { forShare(): T }>(qb: T, db: Kysely<unknown> | Transaction<unknown>): T {
  return dialectOf(db) === 'postgres' ? qb.forShare() : qb;
}
