import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('role')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_super', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('perm_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('permission')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('parent_id', 'integer')
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('role_permission')
    .addColumn('role_id', 'bigint', (c) => c.notNull().references('role.id').onDelete('cascade'))
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('permission.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_permission_pk', ['role_id', 'permission_id'])
    .execute();
  await db.schema
    .createTable('manager')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('username', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('role_id', 'bigint', (c) => c.notNull().references('role.id'))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (0, 1)`),
    )
    .addColumn('last_login_at', 'bigint')
    .addColumn('last_login_ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('manager_role_idx').on('manager').column('role_id').execute();
  await db.schema
    .createTable('session')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('manager_id', 'bigint', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_reason', 'varchar(16)')
    .execute();
  await db.schema.createIndex('session_manager_idx').on('session').columns(['manager_id', 'revoked_at']).execute();
  await db.schema
    .createTable('op_log')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('manager_id', 'bigint', (c) => c.notNull())
    .addColumn('username', 'varchar(20)', (c) => c.notNull())
    .addColumn('permission_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('summary', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('op_log_created_idx').on('op_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('op_log_manager_idx').on('op_log').columns(['username', 'created_at']).execute();
  await db.schema
    .createTable('login_attempt')
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_attempt_pk', ['username', 'ip'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['login_attempt', 'op_log', 'session', 'manager', 'role_permission', 'permission', 'role']) {
    await db.schema.dropTable(t).execute();
  }
}
