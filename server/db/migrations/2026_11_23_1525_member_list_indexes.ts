import type { Kysely } from 'kysely';

/**
 * member/list at a million members: a level or status filter (alone or with the default id order)
 * walks one of these instead of the whole table; last login sorts page through its own index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('member_level_idx').on('member').columns(['level', 'id']).execute();
  await db.schema.createIndex('member_status_idx').on('member').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('member_status_idx').execute();
  await db.schema.dropIndex('member_level_idx').execute();
}
