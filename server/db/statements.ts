/**
 * The statements a connection runs, made cheaper per dialect: SQLite statements compiled once and kept
 * (withStatementCache), PostgreSQL statements prepared by name (withPreparedStatements), and rows read
 * as arrays on both (selectArrays). createDb (./dialect.ts) wraps every connection with these.
 */
import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely, QueryExecutorProvider, Transaction } from 'kysely';
import type pg from 'pg';

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
    if (
      this.names.size >= PREPARED_STATEMENTS_MAX ||
      !/^\s*(\/\*[^*]*\*\/\s*)?(select|insert|update|delete|with)\b/i.test(text)
    ) {
      return undefined;
    }
    const name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}

const PREPARED = Symbol('prepared statements');

/**
 * The comment that asks PostgreSQL for a statement's generic plan: made once per connection and reused,
 * where the pool otherwise plans every execution with its values (force_custom_plan, see pgPool.ts).
 * For point writes whose plan cannot depend on the values (rows by their keys) and that run often
 * enough for planning to matter: approveInOneStatement's four CTEs took ~0.13 ms to plan, warm, of
 * ~0.8 ms in all (docs/performance.md, issue 16). Run it with `executeGenericPlan`.
 */
export const GENERIC_PLAN = '/* generic plan */ ';

/**
 * Per database handle (createDb): a small pool whose connections stay in generic-plan mode, for the
 * reads `readWithGenericPlan` sends it. Reads that take no row lock only: they never wait behind a
 * writer, so a busy batch cannot hold these connections and stall the session lookups queued for them.
 */
const genericPlanDbs = new WeakMap<Kysely<any>, Kysely<any>>();

/** Registers `generic` (a Kysely over connections made with `withPreparedStatements(…, 'generic')`) for `db`. */
export function setGenericPlanDb(db: Kysely<any>, generic: Kysely<any>): void {
  genericPlanDbs.set(db, generic);
}

/**
 * Runs `query` asking for its generic plan on PostgreSQL (GENERIC_PLAN), on the caller's connection
 * (its mode switched, see withPreparedStatements); SQLite ignores the comment.
 */
export function executeGenericPlan<R>(
  db: Kysely<any> | Transaction<any>,
  query: { compile(executorProvider: QueryExecutorProvider): CompiledQuery<R> },
) {
  return db.executeQuery<R>(markedGeneric(query.compile(db)));
}

const markedGeneric = <R>(compiled: CompiledQuery<R>): CompiledQuery<R> => ({
  ...compiled,
  sql: GENERIC_PLAN + compiled.sql,
});

const LOCK_FREE_READ = /^\s*select\b/i;
const ROW_LOCK = /\bfor\s+(no\s+key\s+update|update|key\s+share|share)\b/i;

/**
 * Runs a read compiled already (compiled once, run with new parameters) with its generic plan: outside
 * a transaction on the handle's generic-plan pool, where no connection switches its mode for it (the
 * session lookup every request makes; a switch there and back would cost two statements a request);
 * inside one on the transaction's connection, as executeGenericPlan. A select without a row lock only.
 */
export function readWithGenericPlan<R>(db: Kysely<any> | Transaction<any>, compiled: CompiledQuery<R>) {
  if (!LOCK_FREE_READ.test(compiled.sql) || ROW_LOCK.test(compiled.sql)) {
    throw new Error('readWithGenericPlan takes a select without a row lock');
  }
  const generic = db.isTransaction ? undefined : genericPlanDbs.get(db as Kysely<any>);
  return (generic ?? db).executeQuery<R>(markedGeneric(compiled));
}

type PlanMode = 'custom' | 'generic' | 'unknown';

const TRANSACTION_CONTROL = /^\s*(begin|start\s+transaction|commit|end|rollback|abort|savepoint|release)\b/i;

/**
 * Sends Kysely's queries as named (prepared) statements on this connection: PostgreSQL parses and
 * analyses a statement once per connection instead of on every request (plans stay custom: see the
 * pool's `plan_cache_mode`; `initialMode` is the mode the pool's connect hook set, generic for the
 * pool that serves marked statements outside transactions). Patched once per pooled client.
 *
 * A statement marked GENERIC_PLAN switches the connection's plan_cache_mode to force_generic_plan
 * first, and the next statement of any other kind switches it back: a SET queued before the statement
 * on the same connection, only when the mode changes (marked statements one after another pay once). A SET
 * inside a transaction is undone by a rollback, so after a transaction that sent one the mode is not
 * known, and the next statement sets it again.
 */
export function withPreparedStatements(
  client: pg.PoolClient,
  names: PreparedNames,
  initialMode: 'custom' | 'generic' = 'custom',
): pg.PoolClient {
  const c = client as pg.PoolClient & { [PREPARED]?: true };
  if (c[PREPARED]) return client;
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  // The pool's connect hook sets this mode before any query of ours.
  let mode: PlanMode = initialMode;
  let inTransaction = false;
  let setInTransaction = false;
  const planMode = (want: 'custom' | 'generic') => {
    if (mode === want) return;
    // Not awaited: the client runs its queries in order; a lost connection fails the statement after.
    query(`set plan_cache_mode = ${want === 'generic' ? 'force_generic_plan' : 'force_custom_plan'}`).catch(
      () => undefined,
    );
    mode = want;
    if (inTransaction) setInTransaction = true;
  };
  const track = (text: string) => {
    if (/^\s*(begin|start\s+transaction)\b/i.test(text)) inTransaction = true;
    else if (/^\s*(commit|end|rollback|abort|release)\b/i.test(text)) {
      if (setInTransaction) mode = 'unknown';
      if (!/^\s*(release|rollback\s+to)\b/i.test(text)) {
        inTransaction = false;
        setInTransaction = false;
      }
    }
  };
  (c as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    // A text, or a query object's (a cursor's: a stream reads through one).
    const a = args[0] as { text?: unknown } | string | undefined;
    const sent = typeof a === 'string' ? a : typeof a?.text === 'string' ? a.text : '';
    if (TRANSACTION_CONTROL.test(sent)) {
      track(sent);
      return query(...args);
    }
    planMode(sent.startsWith(GENERIC_PLAN) ? 'generic' : 'custom');
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
