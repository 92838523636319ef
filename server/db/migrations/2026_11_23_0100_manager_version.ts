import type { Kysely } from 'kysely';

/**
 * An edit counter on managers: saving a manager names the version it was read at, so two managers
 * editing (or disabling) the same manager at once get one success and one clear refusal.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('manager')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('manager').dropColumn('version').execute();
}
