import { sql, type Kysely } from 'kysely';

/**
 * payment/list totals at a million methods: the number of payment methods per (type, status), moved by
 * the payment repository in the same transaction as every insert and every status change, so the list
 * unfiltered or of a type and/or status answers its exact total from at most sixteen rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_stat')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addPrimaryKeyConstraint('payment_stat_pk', ['type', 'status'])
    .execute();
  await sql`insert into payment_stat (type, status, n)
    select type, status, count(*) from payment_method group by type, status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_stat').execute();
}
