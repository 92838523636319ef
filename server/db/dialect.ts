/**
 * Everything that differs between SQLite and PostgreSQL lives here: connection, integer parsing,
 * column types for migrations, and row locks. The rest of the server writes one query for both.
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
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    return { db, kind: 'sqlite', close: () => db.destroy() };
  }
  const schema = opts.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  if (schema) {
    // Every new connection must find its schema; create it once, before the first query.
    const ready = (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } finally {
        await c.end();
      }
    })();
    const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
      await ready;
      return connect();
    };
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
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
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await c.end();
  }
}

export { sql };
