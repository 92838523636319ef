import { sql, type Kysely } from 'kysely';

/**
 * withdraw/list totals at a million records: the number of withdrawals and the sums of amount and fee
 * per (type, status), moved by the withdrawal repository in the same transaction as every insert and
 * every status change, so the list of a type (and status) answers its exact total and footer sums from
 * one row instead of summing hundreds of thousands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('withdrawal_stat')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('amount_sum', 'bigint', (c) => c.notNull())
    .addColumn('fee_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('withdrawal_stat_pk', ['type', 'status'])
    .execute();
  await sql`insert into withdrawal_stat (type, status, n, amount_sum, fee_sum)
    select type, status, count(*), sum(amount), sum(fee) from withdrawal group by type, status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('withdrawal_stat').execute();
}
