import { sql, type Kysely } from 'kysely';
import { dialectOf, types } from '../dialect';
import { OVERFLOW_ABORT } from './2026_11_24_1000_integer_sums';

/**
 * The mall (DOMAIN.md §3 Mall): products, their SKUs, orders, and the counters the order list reads its
 * exact total and sums from at a million orders, each moved with every insert and status change:
 * order_stat (per status and asset), order_product_stat (per product, status and asset: one product's
 * orders, and whether a product has unfinished ones), order_member_stat (per member, status and asset:
 * a member's orders) and order_day_stat (per Asia/Shanghai day and
 * 32-day block and asset, server/db/dayBuckets.ts: a date range; orders are never deleted).
 * - A product's price, stock and sales are not columns: the list derives them from the page's SKUs
 *   (lowest price, sums), so no buyer ever waits on the product row.
 * - A SKU is never deleted while orders may point at it: a SKU left out of a new set is marked
 *   `deleted` (stock 0) and comes back if the same spec returns. (product_id, spec) is unique.
 * - A deleted product keeps its row (orders keep their snapshot and product id): `deleted_at`.
 * - The order number is not stored: it is the order's Asia/Shanghai date and its id (domain/mall.ts
 *   orderNo), so it is unique by construction and a search by number is a primary-key lookup.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('product')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull().check(sql`kind in (1, 2)`))
    .addColumn('asset', 'varchar(8)', (c) => c.notNull().check(sql`asset in ('USDT', 'LZ', 'ENERGY')`))
    .addColumn('cover', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('gallery', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seed_energy', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`seed_energy >= 0`),
    )
    .addColumn('seed_days', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`seed_days between 0 and 3650`),
    )
    .addColumn('specs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`status in (0, 1)`),
    )
    .addColumn('deleted_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addCheckConstraint('product_seed_terms', sql`kind = 1 or (seed_energy > 0 and seed_days > 0)`)
    .execute();
  await db.schema.createIndex('product_status_idx').on('product').columns(['status', 'id']).execute();
  await db.schema.createIndex('product_sort_idx').on('product').columns(['sort', 'id']).execute();

  await db.schema
    .createTable('product_sku')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('product_id', 'bigint', (c) => c.notNull().references('product.id'))
    .addColumn('spec', 'varchar(300)', (c) => c.notNull())
    .addColumn('spec_values', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('stock', 'bigint', (c) => c.notNull().check(sql`stock >= 0`))
    .addColumn('sales', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`sales >= 0`),
    )
    .addColumn('image', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`deleted in (0, 1)`),
    )
    .addUniqueConstraint('product_sku_spec', ['product_id', 'spec'])
    .execute();

  await db.schema
    .createTable('mall_order')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('product_id', 'bigint', (c) => c.notNull().references('product.id'))
    .addColumn('sku_id', 'bigint', (c) => c.notNull().references('product_sku.id'))
    .addColumn('kind', 'integer', (c) => c.notNull().check(sql`kind in (1, 2)`))
    .addColumn('asset', 'varchar(8)', (c) => c.notNull().check(sql`asset in ('USDT', 'LZ', 'ENERGY')`))
    .addColumn('product_name', 'varchar(60)', (c) => c.notNull())
    .addColumn('spec', 'varchar(300)', (c) => c.notNull())
    .addColumn('image', 'varchar(500)', (c) => c.notNull())
    .addColumn('unit_price', 'bigint', (c) => c.notNull().check(sql`unit_price > 0`))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity between 1 and 99`))
    .addColumn('total', 'bigint', (c) => c.notNull().check(sql`total > 0`))
    .addColumn('receiver_name', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('receiver_phone', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('receiver_address', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().check(sql`status in (1, 2, 3, 4)`))
    .addColumn('express_company', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('tracking_no', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('seed_id', 'bigint')
    .addColumn('operator_name', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('shipped_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mall_order_status_idx').on('mall_order').columns(['status', 'id']).execute();
  await db.schema.createIndex('mall_order_member_idx').on('mall_order').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('mall_order_product_idx').on('mall_order').columns(['product_id', 'id']).execute();
  await db.schema.createIndex('mall_order_created_idx').on('mall_order').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('mall_order_shipped_idx').on('mall_order').columns(['status', 'shipped_at']).execute();

  // Products per status (−1: deleted), kind and pay asset: the product list's total without a name.
  await db.schema
    .createTable('product_stat')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('asset', 'varchar(8)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addPrimaryKeyConstraint('product_stat_pk', ['status', 'kind', 'asset'])
    .execute();

  await db.schema
    .createTable('order_stat')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('asset', 'varchar(8)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('total_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_stat_pk', ['status', 'asset'])
    .execute();

  await db.schema
    .createTable('order_product_stat')
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('asset', 'varchar(8)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('total_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_product_stat_pk', ['product_id', 'status', 'asset'])
    .execute();
  await db.schema
    .createTable('order_member_stat')
    .addColumn('member_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('asset', 'varchar(8)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('total_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_member_stat_pk', ['member_id', 'status', 'asset'])
    .execute();
  await db.schema
    .createTable('order_day_stat')
    .addColumn('kind', 'varchar(1)', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('asset', 'varchar(8)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addColumn('total_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_day_stat_pk', ['kind', 'bucket', 'asset'])
    .execute();

  // SQLite: refuse a counter sum that would go REAL past 2^63 (as 2026_11_24_1000_integer_sums does).
  if (dialectOf(db) === 'sqlite') {
    for (const table of ['order_stat', 'order_product_stat', 'order_member_stat', 'order_day_stat'])
      for (const event of ['insert', 'update'] as const) {
        await sql`create trigger ${sql.id(`${table}_integer_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
          when typeof(new.n) <> 'integer' or typeof(new.total_sum) <> 'integer'
          begin select raise(abort, ${sql.lit(OVERFLOW_ABORT)}); end`.execute(db);
      }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'order_day_stat',
    'order_member_stat',
    'order_product_stat',
    'order_stat',
    'mall_order',
    'product_sku',
    'product',
  ])
    await db.schema.dropTable(table).execute();
}
