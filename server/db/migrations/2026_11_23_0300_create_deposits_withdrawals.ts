import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

/** Settings (key → JSON), deposits and their receiving addresses, withdrawals and extracts. */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('setting')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('deposit_account')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('chain', 'varchar(10)', (c) => c.notNull().check(sql`chain in ('TRC20', 'ERC20')`))
    .addColumn('address', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('qr_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status in (0, 1)`),
    )
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('deposit')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('chain', 'varchar(10)', (c) => c.notNull().check(sql`chain in ('TRC20', 'ERC20')`))
    .addColumn('from_address', 'varchar(100)', (c) => c.notNull())
    .addColumn('to_address', 'varchar(100)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('tx_hash', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('proof_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`status in (0, 1, 2)`),
    )
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('auditor_id', 'bigint')
    .addColumn('auditor_name', 'varchar(64)')
    .addColumn('audited_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deposit_created_idx').on('deposit').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('deposit_status_idx').on('deposit').columns(['status', 'id']).execute();
  await db.schema.createIndex('deposit_member_idx').on('deposit').columns(['member_id', 'id']).execute();

  await db.schema
    .createTable('withdrawal')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('member.id'))
    .addColumn('type', 'integer', (c) => c.notNull().check(sql`type in (1, 2)`))
    .addColumn('asset', 'varchar(10)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('actual', 'bigint', (c) => c.notNull().check(sql`actual > 0`))
    .addColumn('chain', 'varchar(10)', (c) => c.notNull())
    .addColumn('address', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`status in (0, 1, 2, 3)`),
    )
    .addColumn('tx_hash', 'varchar(100)')
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('auditor_id', 'bigint')
    .addColumn('auditor_name', 'varchar(64)')
    .addColumn('audited_at', 'bigint')
    .addColumn('paid_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('withdrawal_actual', sql`actual = amount - fee`)
    .execute();
  await db.schema.createIndex('withdrawal_type_idx').on('withdrawal').columns(['type', 'id']).execute();
  await db.schema
    .createIndex('withdrawal_type_status_idx')
    .on('withdrawal')
    .columns(['type', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('withdrawal_type_created_idx')
    .on('withdrawal')
    .columns(['type', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('withdrawal_member_idx').on('withdrawal').columns(['member_id', 'created_at']).execute();
  await db.schema.createIndex('withdrawal_address_idx').on('withdrawal').column('address').execute();
  await db.schema.createIndex('withdrawal_tx_idx').on('withdrawal').column('tx_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['withdrawal', 'deposit', 'deposit_account', 'setting'])
    await db.schema.dropTable(table).execute();
}
