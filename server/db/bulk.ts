/**
 * Many rows as one statement's input (the settlement job's batches: releases, record moves, balance
 * credits, bills). The rows become the body of a CTE, `with v(a, b) as (${bulkRows(…)})`, to insert
 * from, join an UPDATE to or lock: on PostgreSQL one typed array per column through unnest (one
 * parameter per column whatever the number of rows, and one statement text, prepared once); on SQLite
 * one JSON text taken apart by json_each (it has no arrays), its rows in the order given.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { dialectOf } from './dialect';

export type BulkType = 'bigint' | 'integer' | 'text';

export function bulkRows(
  db: Kysely<any> | Transaction<any>,
  types: readonly BulkType[],
  rows: ReadonlyArray<ReadonlyArray<string | number | bigint | null>>,
): RawBuilder<unknown> {
  if (rows.length === 0) throw new Error('bulkRows needs at least one row');
  if (dialectOf(db as Kysely<unknown>) === 'postgres') {
    const arrays = types.map((type, i) => sql`cast(${rows.map((r) => r[i])} as ${sql.raw(`${type}[]`)})`);
    return sql`select * from unnest(${sql.join(arrays)})`;
  }
  // SQLite: the rows as one JSON text, taken apart by json_each. The same one parameter for any number
  // of rows, as on PostgreSQL: a VALUES list built of a template per value cost the settlement more CPU
  // in building and compiling the query (Kysely freezes every node) than SQLite spent running it.
  // Integers travel as JSON strings (a bigint has no JSON form; text casts to a 64-bit integer exactly).
  // Text is made well-formed first: JSON.stringify writes a lone surrogate as `\ud800`, which SQLite's
  // JSON functions would store as bytes that are not UTF-8; a bound parameter gets U+FFFD, so this does.
  const json = JSON.stringify(
    rows.map((r) => r.map((v) => (typeof v === 'bigint' ? String(v) : typeof v === 'string' ? v.toWellFormed() : v))),
  );
  const columns = types.map((type, i) => (type === 'text' ? `value ->> ${i}` : `cast(value ->> ${i} as integer)`));
  return sql`select ${sql.raw(columns.join(', '))} from json_each(${json}) order by key`;
}

/**
 * A bulk job's transaction on PostgreSQL commits without waiting for its WAL flush
 * (`synchronous_commit = off`, this transaction only). Safe for a job whose every batch is one
 * transaction and is re-done when missing: a database crash can lose only the newest commits, whole
 * and in order, and the job (its lease taken over) pays them again; any later synchronous commit, such
 * as a member's withdrawal of what a batch credited, flushes the batch with it. No-op on SQLite.
 */
export async function asyncCommit(trx: Transaction<any>): Promise<void> {
  if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres')
    await sql`set local synchronous_commit = off`.execute(trx);
}

/** WAL pages between SQLite's automatic checkpoints while a bulk job runs (200 MB of 4 KiB pages). */
export const BULK_CHECKPOINT_PAGES = 50_000;
/** SQLite's memory map while a bulk job runs: the most this build allows (SQLITE_MAX_MMAP_SIZE, 2 GiB). */
export const BULK_MMAP_BYTES = 0x7fff0000;

/**
 * Runs a bulk job with SQLite set for it, the previous settings restored after (then a passive
 * checkpoint, so that the next request does not pay for the job's WAL). No-op on PostgreSQL.
 * - Automatic checkpoints spaced out: a settlement batch dirties a few thousand scattered pages, and a
 *   checkpoint after every commit (every 1,000 WAL pages, the default) wrote each back to the database
 *   file once per batch; spaced out, a page changed by several batches is written back once.
 * - Reads through a memory map: the batch's random index pages are read from the OS cache without a
 *   read() call and a copy each.
 */
export async function withBulkJobSettings<T>(db: Kysely<any>, job: () => Promise<T>): Promise<T> {
  if (dialectOf(db as Kysely<unknown>) !== 'sqlite') return job();
  const get = async (name: 'wal_autocheckpoint' | 'mmap_size') =>
    Number(Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] ?? {})[0] ?? 0);
  const set = (name: 'wal_autocheckpoint' | 'mmap_size', value: number) =>
    sql.raw(`pragma ${name} = ${Math.trunc(value)}`).execute(db);
  const before = { checkpoint: await get('wal_autocheckpoint'), mmap: await get('mmap_size') };
  await set('wal_autocheckpoint', BULK_CHECKPOINT_PAGES);
  await set('mmap_size', BULK_MMAP_BYTES);
  try {
    return await job();
  } finally {
    await set('wal_autocheckpoint', before.checkpoint);
    await set('mmap_size', before.mmap);
    await sql`pragma wal_checkpoint(passive)`.execute(db);
  }
}
