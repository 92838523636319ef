import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

/** Members, zones, and the ledger: one account per member × asset and its bills. */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('zone')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('leader_uid', 'varchar(8)')
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (0, 1)`),
    )
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('member_count', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`member_count >= 0`),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('member')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('uid', 'varchar(8)', (c) => c.notNull().unique())
    .addColumn('phone', 'varchar(11)', (c) => c.notNull().unique())
    .addColumn('nickname', 'varchar(50)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('inviter_id', 'bigint', (c) => c.references('member.id'))
    .addColumn('zone_id', 'bigint', (c) => c.references('zone.id'))
    .addColumn('level', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`level between 0 and 5`),
    )
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (1, 2, 3)`),
    )
    .addColumn('real_name_status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`real_name_status in (0, 1)`),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .execute();
  await db.schema.createIndex('member_created_idx').on('member').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('member_inviter_idx').on('member').column('inviter_id').execute();
  await db.schema.createIndex('member_zone_idx').on('member').columns(['zone_id', 'id']).execute();
  await db.schema.createIndex('member_nickname_idx').on('member').column('nickname').execute();
  await db.schema
    .createTable('account')
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('asset', 'varchar(10)', (c) => c.notNull())
    .addColumn('available', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('frozen', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_pk', ['member_id', 'asset'])
    .addCheckConstraint('account_available_nonneg', sql`available >= 0`)
    .addCheckConstraint('account_frozen_nonneg', sql`frozen >= 0`)
    .execute();
  await db.schema.createIndex('account_asset_total_idx').on('account').columns(['asset', 'available']).execute();
  await db.schema
    .createTable('bill')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('asset', 'varchar(10)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('change', 'bigint', (c) => c.notNull())
    .addColumn('available_after', 'bigint', (c) => c.notNull())
    .addColumn('frozen_change', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('frozen_after', 'bigint', (c) => c.notNull())
    .addColumn('ref_kind', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('ref_id', 'bigint')
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Paging is newest first by id; these serve "one member", "one type in a range" and "one asset".
  await db.schema.createIndex('bill_member_idx').on('bill').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('bill_type_idx').on('bill').columns(['type', 'id']).execute();
  await db.schema.createIndex('bill_asset_idx').on('bill').columns(['asset', 'id']).execute();
  await db.schema.createIndex('bill_created_idx').on('bill').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('bill_ref_idx').on('bill').columns(['ref_kind', 'ref_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['bill', 'account', 'member', 'zone']) await db.schema.dropTable(table).execute();
}
