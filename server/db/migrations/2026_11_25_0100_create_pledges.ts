import { sql, type Kysely } from 'kysely';
import { dialectOf, types } from '../dialect';
import { OVERFLOW_ABORT } from './2026_11_24_1000_integer_sums';

/**
 * Pledge modes, pledges (LZ staked for a daily yield, DOMAIN.md §3 Pledge) and their daily releases,
 * with the counters their lists read exact totals from at 1,000,000 pledges and 10,000,000 releases:
 * - pledge_stat: pledges per (mode_id, status) with the sums of amount and released (the list's
 *   total and footer, and each mode's 使用中 count);
 * - pledge_release_stat: releases per Asia/Shanghai day with the sums of yield and principal.
 * Both are moved in the transaction that writes the counted rows (the pledge repository, and the
 * settlement job through pledge.query.ts countReleases).
 */
const COUNTERS: Record<string, string[]> = {
  pledge_stat: ['n', 'amount_sum', 'released_sum'],
  pledge_release_stat: ['n', 'amount_sum', 'principal_sum'],
};

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('pledge_mode')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days between 1 and 3650`))
    .addColumn('rate', 'bigint', (c) => c.notNull().check(sql`rate > 0 and rate <= 50000`))
    .addColumn('min_amount', 'bigint', (c) => c.notNull().check(sql`min_amount > 0`))
    .addColumn('max_amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (0, 1)`),
    )
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('pledge_mode_max_ge_min', sql`max_amount >= min_amount`)
    .execute();

  await db.schema
    .createTable('pledge')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('mode_id', 'bigint', (c) => c.notNull().references('pledge_mode.id'))
    .addColumn('mode_name', 'varchar(40)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days between 1 and 3650`))
    .addColumn('daily_yield', 'bigint', (c) => c.notNull().check(sql`daily_yield >= 0`))
    .addColumn('total_yield', 'bigint', (c) => c.notNull().check(sql`total_yield >= 0`))
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
    .addCheckConstraint('pledge_released_le_total', sql`released <= total_yield`)
    .addCheckConstraint('pledge_end_day', sql`end_day = start_day + days`)
    .execute();
  await db.schema.createIndex('pledge_job_idx').on('pledge').columns(['status', 'paid_day', 'id']).execute();
  await db.schema.createIndex('pledge_status_idx').on('pledge').columns(['status', 'id']).execute();
  await db.schema.createIndex('pledge_mode_idx').on('pledge').columns(['mode_id', 'id']).execute();
  await db.schema.createIndex('pledge_mode_status_idx').on('pledge').columns(['mode_id', 'status', 'id']).execute();
  await db.schema.createIndex('pledge_member_idx').on('pledge').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('pledge_created_idx').on('pledge').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('pledge_release')
    .addColumn('id', t.id, (c) => c.primaryKey())
    // No foreign key: a release is written only by the settlement batch that, in the same
    // transaction, moves its pledge with an UPDATE that must hit the row (pledges are never deleted);
    // on PostgreSQL the key's check locked the pledge row once more per release (docs/decisions.md).
    .addColumn('pledge_id', 'bigint', (c) => c.notNull())
    .addColumn('member_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('principal', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`principal >= 0`),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pledge_release_pledge_day', ['pledge_id', 'day'])
    .execute();
  await db.schema.createIndex('pledge_release_day_idx').on('pledge_release').columns(['day', 'id']).execute();
  await db.schema
    .createIndex('pledge_release_member_idx')
    .on('pledge_release')
    .columns(['member_id', 'day', 'id'])
    .execute();

  await db.schema
    .createTable('pledge_stat')
    .addColumn('mode_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('amount_sum', 'bigint', (c) => c.notNull())
    .addColumn('released_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pledge_stat_pk', ['mode_id', 'status'])
    .execute();
  await db.schema
    .createTable('pledge_release_stat')
    .addColumn('day', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('amount_sum', 'bigint', (c) => c.notNull())
    .addColumn('principal_sum', 'bigint', (c) => c.notNull())
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
  for (const table of ['pledge_release_stat', 'pledge_stat', 'pledge_release', 'pledge', 'pledge_mode'])
    await db.schema.dropTable(table).execute();
}
