import { sql, type Kysely } from 'kysely';

/**
 * deposit/list totals at a million records: the number of deposits and the sum of their amounts per
 * status, moved by the deposit repository in the same transaction as every insert and every status
 * change, so the list unfiltered or of one status answers its exact total and footer sum from one row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deposit_stat')
    .addColumn('status', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addColumn('amount_sum', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into deposit_stat (status, n, amount_sum)
    select status, count(*), sum(amount) from deposit group by status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('deposit_stat').execute();
}
