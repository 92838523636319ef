import { sql, type Kysely } from 'kysely';

/**
 * Bill totals at ten million rows: the number of bills and the sums of change and frozen change per
 * (Asia/Shanghai day, asset, type) — kind 'D', bucket = day number — and per 32-day block — kind 'B',
 * bucket = day number / 32 — kept by the ledger in the same statement batch as every bill, so the bill
 * list's total and sums for any asset/type/date filter are exact and read a few hundred rows
 * (docs/decisions.md "Bills"). Bills are never updated or deleted, so adding is all it takes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bill_stat')
    .addColumn('kind', 'varchar(1)', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('asset', 'varchar(10)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addColumn('change_sum', 'bigint', (c) => c.notNull())
    .addColumn('frozen_change_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('bill_stat_pk', ['kind', 'bucket', 'asset', 'type'])
    .execute();
  await rebuild(db);
}

/** The same grouping as the ledger's upserts (integer division: created_at is positive). */
export async function rebuild(db: Kysely<any>): Promise<void> {
  await sql`delete from bill_stat`.execute(db);
  await sql`insert into bill_stat (kind, bucket, asset, type, n, change_sum, frozen_change_sum)
    select 'D', (created_at + 28800000) / 86400000, asset, type, count(*), sum(change), sum(frozen_change)
    from bill group by (created_at + 28800000) / 86400000, asset, type`.execute(db);
  await sql`insert into bill_stat (kind, bucket, asset, type, n, change_sum, frozen_change_sum)
    select 'B', bucket / 32, asset, type, sum(n), sum(change_sum), sum(frozen_change_sum)
    from bill_stat where kind = 'D' group by bucket / 32, asset, type`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bill_stat').execute();
}
