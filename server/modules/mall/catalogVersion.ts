/**
 * The catalog's version (catalog_version, one row): moved in the transaction of every product write, so a
 * figure computed from the products — a name search's exact count — can be kept until the next write.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Moves the catalog's version: call in the transaction of every product write. */
export async function bumpCatalog(trx: Db): Promise<void> {
  await trx
    .updateTable('catalog_version')
    .set((eb) => ({ v: eb('v', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** Counts kept per catalog version (one map per database handle), oldest out first. */
const kept = new WeakMap<object, Map<string, number>>();
const KEPT = 500;

/**
 * `count()` once per catalog version and `key` (the filter it counts). The version is read before the
 * count: a write committed in between makes the count newer than its version, never older, and that
 * version is already past (the next request reads the new one), so a kept count is never stale.
 */
export async function countPerVersion(db: Db, key: unknown, count: () => Promise<number>): Promise<number> {
  const row = await db.selectFrom('catalog_version').select('v').where('id', '=', 1).executeTakeFirst();
  const id = JSON.stringify([Number(row?.v ?? 0), key]);
  let counts = kept.get(db);
  if (!counts) kept.set(db, (counts = new Map()));
  const hit = counts.get(id);
  if (hit !== undefined) return hit;
  const n = await count();
  if (counts.size >= KEPT) counts.delete(counts.keys().next().value as string);
  counts.set(id, n);
  return n;
}
