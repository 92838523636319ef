import { sql, type Kysely } from 'kysely';
import { dialectOf, types } from '../dialect';
import { OVERFLOW_ABORT } from './2026_11_24_1000_integer_sums';

/**
 * Seeds (energy released daily by the settlement job), their releases, and matches (LZ traded between
 * members, paid off-platform), with the counters their lists read exact totals from at a million
 * seeds, ten million releases and half a million matches:
 * - seed_stat: seeds per (source, status) with the sums of total_energy and released;
 * - seed_release_stat: releases per Asia/Shanghai day with the sum of their energy;
 * - match_stat: matches per status with the sums of quantity and total.
 * Each is moved in the transaction that writes the counted rows (the seeds and matches repositories,
 * and the settlement job through seeds.query.ts countSeedReleases).
 */
const COUNTERS: Record<string, string[]> = {
  seed_stat: ['n', 'total_sum', 'released_sum'],
  seed_release_stat: ['n', 'amount_sum'],
  match_stat: ['n', 'quantity_sum', 'total_sum'],
};

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('seed')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull().check(sql`source in (1, 2, 3)`))
    .addColumn('ref_id', 'bigint')
    .addColumn('total_energy', 'bigint', (c) => c.notNull().check(sql`total_energy > 0`))
    .addColumn('daily_energy', 'bigint', (c) => c.notNull().check(sql`daily_energy >= 0`))
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days between 1 and 3650`))
    .addColumn('start_day', 'integer', (c) => c.notNull())
    .addColumn('end_day', 'integer', (c) => c.notNull())
    .addColumn('paid_day', 'integer', (c) => c.notNull())
    .addColumn('released', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`released >= 0`),
    )
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (1, 2)`),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addCheckConstraint('seed_released_le_total', sql`released <= total_energy`)
    .addCheckConstraint('seed_end_day', sql`end_day = start_day + days`)
    .execute();
  await db.schema.createIndex('seed_job_idx').on('seed').columns(['status', 'paid_day', 'id']).execute();
  await db.schema.createIndex('seed_status_idx').on('seed').columns(['status', 'id']).execute();
  await db.schema.createIndex('seed_source_idx').on('seed').columns(['source', 'id']).execute();
  await db.schema.createIndex('seed_member_idx').on('seed').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('seed_created_idx').on('seed').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('seed_release')
    .addColumn('id', t.id, (c) => c.primaryKey())
    // No foreign key, as pledge_release: written only with the UPDATE that must hit its seed.
    .addColumn('seed_id', 'bigint', (c) => c.notNull())
    .addColumn('member_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('seed_release_seed_day', ['seed_id', 'day'])
    .execute();
  await db.schema.createIndex('seed_release_day_idx').on('seed_release').columns(['day', 'id']).execute();
  await db.schema
    .createIndex('seed_release_member_idx')
    .on('seed_release')
    .columns(['member_id', 'day', 'id'])
    .execute();

  await db.schema
    .createTable('match_trade')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('seller_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('buyer_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('quantity', 'bigint', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('unit_price', 'bigint', (c) => c.notNull().check(sql`unit_price > 0`))
    .addColumn('total', 'bigint', (c) => c.notNull().check(sql`total >= 0`))
    .addColumn('payment', 'text', (c) => c.notNull())
    .addColumn('proof_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (1, 2, 3, 4, 5)`),
    )
    .addColumn('appeal_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('appeal_by', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`appeal_by in (0, 1, 2)`),
    )
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('arbiter_id', 'bigint')
    .addColumn('arbiter_name', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('match_trade_parties', sql`seller_id <> buyer_id`)
    .execute();
  await db.schema.createIndex('match_expiry_idx').on('match_trade').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('match_status_idx').on('match_trade').columns(['status', 'id']).execute();
  await db.schema.createIndex('match_seller_idx').on('match_trade').columns(['seller_id', 'id']).execute();
  await db.schema.createIndex('match_buyer_idx').on('match_trade').columns(['buyer_id', 'id']).execute();
  await db.schema.createIndex('match_created_idx').on('match_trade').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('seed_stat')
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('total_sum', 'bigint', (c) => c.notNull())
    .addColumn('released_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('seed_stat_pk', ['source', 'status'])
    .execute();
  await db.schema
    .createTable('seed_release_stat')
    .addColumn('day', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('amount_sum', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('match_stat')
    .addColumn('status', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('quantity_sum', 'bigint', (c) => c.notNull())
    .addColumn('total_sum', 'bigint', (c) => c.notNull())
    .execute();

  // SQLite: refuse a counter sum that would go REAL past 2^63 (as 2026_11_24_1000_integer_sums does).
  if (dialectOf(db) === 'sqlite') {
    for (const [table, columns] of Object.entries(COUNTERS)) {
      const notInteger = sql.join(
        columns.map((c) => sql`typeof(new.${sql.id(c)}) <> 'integer'`),
        sql` or `,
      );
      for (const event of ['insert', 'update'] as const) {
        await sql`create trigger ${sql.id(`${table}_integer_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
          when ${notInteger}
          begin select raise(abort, ${sql.lit(OVERFLOW_ABORT)}); end`.execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['match_stat', 'seed_release_stat', 'seed_stat', 'match_trade', 'seed_release', 'seed'])
    await db.schema.dropTable(table).execute();
}
