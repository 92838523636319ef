import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

/**
 * The second factor (issue 15): authenticator codes (RFC 6238 TOTP).
 * - manager_totp: a manager's secret, AES-256-GCM encrypted with TOTP_KEY; confirmed_at is null while
 *   the binding waits for its first code. last_step is the newest 30 s step accepted: a code of that
 *   step or an older one is refused (a conditional UPDATE, so two servers cannot both accept it).
 * - totp_recovery: ten one-time recovery codes per binding, kept as keyed hashes.
 * - login_challenge: the password step's answer for a manager with an authenticator; the code step
 *   trades it (once, within minutes) for a session.
 * - totp_attempt: wrong codes per manager (key = manager id, ip = '*'), the same shape and mechanism as
 *   login_attempt's account rows but a table of its own: the password login counts any user name it
 *   is given, so a key the login can write must never be one the code step reads.
 * - manager.totp_on: the binding is confirmed (read by every request's session lookup, so no join).
 * - role.require_totp: the role's managers must bind before they may do anything else.
 * - session.mfa_at: when this session last gave a code (login or step-up): money routes ask again
 *   when it is older than STEP_UP_SECONDS.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('manager_totp')
    .addColumn('manager_id', 'bigint', (c) => c.primaryKey())
    .addColumn('secret_enc', 'varchar(200)', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('totp_recovery')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('manager_id', 'bigint', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('totp_recovery_code_idx')
    .on('totp_recovery')
    .columns(['manager_id', 'code_hash'])
    .unique()
    .execute();
  await db.schema
    .createTable('login_challenge')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('manager_id', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createTable('totp_attempt')
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('totp_attempt_pk', ['username', 'ip'])
    .execute();
  await db.schema.createIndex('login_challenge_manager_idx').on('login_challenge').column('manager_id').execute();
  await db.schema
    .alterTable('manager')
    .addColumn('totp_on', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`totp_on in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable('role')
    .addColumn('require_totp', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`require_totp in (0, 1)`),
    )
    .execute();
  await db.schema.alterTable('session').addColumn('mfa_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('session').dropColumn('mfa_at').execute();
  await db.schema.alterTable('role').dropColumn('require_totp').execute();
  await db.schema.alterTable('manager').dropColumn('totp_on').execute();
  for (const table of ['totp_attempt', 'login_challenge', 'totp_recovery', 'manager_totp'])
    await db.schema.dropTable(table).execute();
}
