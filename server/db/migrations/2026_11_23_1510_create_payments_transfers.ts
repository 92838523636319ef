import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

/** Members' payment methods (reviewed by managers) and member-to-member transfers. */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('payment_method')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('type', 'integer', (c) => c.notNull().check(sql`type in (1, 2, 3, 4)`))
    .addColumn('holder', 'varchar(50)', (c) => c.notNull())
    .addColumn('account', 'varchar(100)', (c) => c.notNull())
    .addColumn('bank', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('branch', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('qr_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`status in (0, 1, 2, 3)`),
    )
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('auditor_id', 'bigint')
    .addColumn('auditor_name', 'varchar(64)')
    .addColumn('audited_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // A bank card names its bank; Alipay and WeChat carry their QR image.
    .addCheckConstraint('payment_method_bank', sql`type <> 1 or bank <> ''`)
    .addCheckConstraint('payment_method_qr', sql`type not in (2, 3) or qr_url <> ''`)
    .execute();
  // The list is newest first by id; these serve its filters (status, type, member, range).
  await db.schema.createIndex('payment_method_status_idx').on('payment_method').columns(['status', 'id']).execute();
  await db.schema.createIndex('payment_method_type_idx').on('payment_method').columns(['type', 'id']).execute();
  await db.schema.createIndex('payment_method_member_idx').on('payment_method').columns(['member_id', 'id']).execute();
  await db.schema
    .createIndex('payment_method_created_idx')
    .on('payment_method')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('transfer')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('from_member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('to_member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('asset', 'varchar(10)', (c) => c.notNull().check(sql`asset in ('USDT', 'LZ')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('transfer_two_members', sql`from_member_id <> to_member_id`)
    .execute();
  await db.schema.createIndex('transfer_from_idx').on('transfer').columns(['from_member_id', 'id']).execute();
  await db.schema.createIndex('transfer_to_idx').on('transfer').columns(['to_member_id', 'id']).execute();
  await db.schema.createIndex('transfer_asset_idx').on('transfer').columns(['asset', 'id']).execute();
  await db.schema.createIndex('transfer_created_idx').on('transfer').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['transfer', 'payment_method']) await db.schema.dropTable(table).execute();
}
