import { sql, type Kysely } from 'kysely';

/**
 * member/list with a short phone prefix at a million members: "138" matches a tenth of them, and an
 * honest total would count ~100,000 index entries on every request. This keeps the number of members
 * per (first three phone digits, zone, level, status), moved with member_count in the same transaction
 * (a member's phone never changes), so a 1–3 digit prefix, alone or with zone/level/status, is a sum over
 * a few rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_phone_count')
    .addColumn('phone3', 'varchar(3)', (c) => c.notNull())
    .addColumn('zone_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().check(sql`n >= 0`))
    .addPrimaryKeyConstraint('member_phone_count_pk', ['phone3', 'zone_id', 'level', 'status'])
    .execute();
  await sql`insert into member_phone_count (phone3, zone_id, level, status, n)
    select substr(phone, 1, 3), coalesce(zone_id, 0), level, status, count(*) from member
    group by substr(phone, 1, 3), coalesce(zone_id, 0), level, status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('member_phone_count').execute();
}
