import type { Kysely } from 'kysely';

/**
 * Bill lists page newest first by (created_at, id) so that a date range and the order share one index
 * (docs/decisions.md "Bills"): each filter column leads an index that continues with (created_at, id),
 * and the (x, id) indexes they replace go.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const name of ['bill_member_idx', 'bill_type_idx', 'bill_asset_idx'])
    await db.schema.dropIndex(name).ifExists().execute();
  await db.schema
    .createIndex('bill_member_created_idx')
    .on('bill')
    .columns(['member_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('bill_type_created_idx').on('bill').columns(['type', 'created_at', 'id']).execute();
  await db.schema.createIndex('bill_asset_created_idx').on('bill').columns(['asset', 'created_at', 'id']).execute();
  // Energy changes (change/list) always filter the asset; with a type as well, neither index above narrows both.
  await db.schema
    .createIndex('bill_asset_type_created_idx')
    .on('bill')
    .columns(['asset', 'type', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'bill_member_created_idx',
    'bill_type_created_idx',
    'bill_asset_created_idx',
    'bill_asset_type_created_idx',
  ])
    await db.schema.dropIndex(name).execute();
  await db.schema.createIndex('bill_member_idx').on('bill').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('bill_type_idx').on('bill').columns(['type', 'id']).execute();
  await db.schema.createIndex('bill_asset_idx').on('bill').columns(['asset', 'id']).execute();
}
