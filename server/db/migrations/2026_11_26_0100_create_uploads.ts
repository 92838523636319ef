import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

/**
 * Uploads (DOMAIN.md §3 "Uploads"): one row per ticket given by `GET oss`. The ticket's token is kept
 * as its SHA-256 only; the upload claims the row once (`used_at` set by a conditional UPDATE), so a
 * ticket works once, for its one key, until `expires_at`, on any server process. What was stored is
 * written back on the row (size, type, dimensions): the record of who uploaded what.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('upload')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('manager_id', 'bigint', (c) => c.notNull().references('manager.id'))
    .addColumn('max_size', 'bigint', (c) => c.notNull().check(sql`max_size > 0`))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('size', 'bigint')
    .addColumn('mime', 'varchar(40)')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_manager_idx').on('upload').columns(['manager_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload').execute();
}
