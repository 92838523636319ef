import { sql, type Kysely } from 'kysely';

/**
 * member/list totals at a million members: the number of members per (zone, level, status), kept by
 * the member service in the same transaction as every insert and every zone/level/status change, so
 * a total filtered by those three alone (or by nothing) is a sum over a few hundred rows instead of a
 * count(*) over the member table. zone_id 0 stands for "no zone" (a primary key column cannot be null).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_count')
    .addColumn('zone_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addPrimaryKeyConstraint('member_count_pk', ['zone_id', 'level', 'status'])
    .execute();
  await sql`insert into member_count (zone_id, level, status, n)
    select coalesce(zone_id, 0), level, status, count(*) from member
    group by coalesce(zone_id, 0), level, status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('member_count').execute();
}
