import { sql, type Kysely } from 'kysely';

/**
 * transfer/list totals at half a million transfers and beyond: the number of transfers and the sums of
 * amount and fee per (Asia/Shanghai day, asset) — kind 'D', bucket = day number — and per 32-day block —
 * kind 'B', bucket = day number / 32 — written with every transfer in its transaction, as bill_stat is
 * for bills, so the list's total and per-asset sums of any asset/date filter are exact and read a few
 * dozen rows (docs/decisions.md). Transfers are never updated or deleted: adding is all it takes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transfer_stat')
    .addColumn('kind', 'varchar(1)', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('asset', 'varchar(10)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addColumn('amount_sum', 'bigint', (c) => c.notNull())
    .addColumn('fee_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('transfer_stat_pk', ['kind', 'bucket', 'asset'])
    .execute();
  // The same grouping as the repository's upserts (integer division: created_at is positive).
  await sql`insert into transfer_stat (kind, bucket, asset, n, amount_sum, fee_sum)
    select 'D', (created_at + 28800000) / 86400000, asset, count(*), sum(amount), sum(fee)
    from transfer group by (created_at + 28800000) / 86400000, asset`.execute(db);
  await sql`insert into transfer_stat (kind, bucket, asset, n, amount_sum, fee_sum)
    select 'B', bucket / 32, asset, sum(n), sum(amount_sum), sum(fee_sum)
    from transfer_stat where kind = 'D' group by bucket / 32, asset`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transfer_stat').execute();
}
