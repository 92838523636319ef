import type { Kysely } from 'kysely';

/**
 * The product catalog's version: one row, moved by every write to a product (create, edit, shelf move,
 * delete) in the same transaction. The product list keeps a name search's exact count per version
 * (products.repository countProducts): a repeated search — the pages after the first, the list
 * refreshed — skips counting its candidates, and a change anywhere, by any server process, is seen by
 * the next request's version read (docs/decisions.md, the mall).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('v', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('catalog_version').values({ id: 1, v: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_version').execute();
}
