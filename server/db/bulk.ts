/**
 * Many rows as one statement's input (the settlement job's batches: releases, record moves, balance
 * credits, bills). The rows become the body of a CTE, `with v(a, b) as (${bulkRows(…)})`, to insert
 * from, join an UPDATE to or lock: on PostgreSQL one typed array per column through unnest (one
 * parameter per column whatever the number of rows, and one statement text, prepared once); on SQLite
 * a VALUES list (its parameters are cheap, and it has no arrays).
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
  return sql`values ${sql.join(rows.map((r) => sql`(${sql.join(r.map((v) => sql`${v}`))})`))}`;
}
