import { sql, type Kysely } from 'kysely';

/**
 * One row per Asia/Shanghai day the settlement job has started: its state, the lease of the process
 * doing it (owner + lease_until, taken and renewed with conditional writes, so that of several server
 * processes on one database exactly one does a given day) and the counts and totals it paid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settlement_run')
    .addColumn('day', 'integer', (c) => c.primaryKey())
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (1, 2, 3)`),
    )
    .addColumn('owner', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('pledges', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pledge_yield', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pledge_principal', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('seeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seed_energy', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('matches_cancelled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('settlement_run').execute();
}
