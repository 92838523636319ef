/**
 * Test fixtures for the system module: roles, managers and sessions written straight into the
 * database (fast, no argon2 per manager), so each test spends its time on the behaviour it checks.
 */
import { permissionByCode } from '../../../../domain/permissions';
import { hashPassword } from '../../../../server/passwords';
import { hashToken, newToken } from '../../../../server/modules/auth/session.service';
import type { TestApp } from '../../helpers';

/** The password of every fixture manager. */
export const PASSWORD = 'Fixture2026pw';
let passwordHash: Promise<string> | undefined;

export async function superRoleId(t: TestApp): Promise<number> {
  const r = await t.db.db.selectFrom('role').select('id').where('is_super', '=', 1).executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function adminId(t: TestApp): Promise<number> {
  const r = await t.db.db.selectFrom('manager').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** A role holding exactly these codes (no closing over parents unless they are listed). */
export async function addRole(t: TestApp, name: string, codes: string[] = []): Promise<number> {
  const now = t.clock.now();
  const r = await t.db.db
    .insertInto('role')
    .values({ name, remark: '', is_super: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = codes.map((c) => {
    const p = permissionByCode.get(c);
    if (!p) throw new Error(`unknown code ${c}`);
    return p.id;
  });
  if (ids.length) {
    await t.db.db
      .insertInto('role_permission')
      .values(ids.map((permission_id) => ({ role_id: Number(r.id), permission_id })))
      .execute();
  }
  return Number(r.id);
}

export async function addManager(t: TestApp, username: string, roleId: number, status = 1): Promise<number> {
  const now = t.clock.now();
  const r = await t.db.db
    .insertInto('manager')
    .values({
      username,
      password_hash: await (passwordHash ??= hashPassword(PASSWORD)),
      role_id: roleId,
      status,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/** A live session for a manager, as login would make it. */
export async function sessionOf(t: TestApp, managerId: number): Promise<string> {
  const token = newToken();
  const now = t.clock.now();
  await t.db.db
    .insertInto('session')
    .values({
      manager_id: managerId,
      token_hash: hashToken(token),
      ip: '127.0.0.1',
      user_agent: 'test',
      created_at: now,
      last_seen_at: now,
    })
    .execute();
  return token;
}

/** A manager of a new role holding `codes`, with a session. */
export async function actingAs(t: TestApp, username: string, codes: string[]) {
  const roleId = await addRole(t, `角色-${username}`, codes);
  const id = await addManager(t, username, roleId);
  return { id, roleId, token: await sessionOf(t, id) };
}

export async function opLogs(t: TestApp) {
  return t.db.db.selectFrom('op_log').selectAll().orderBy('id').execute();
}

export async function opLogCount(t: TestApp): Promise<number> {
  const r = await t.db.db
    .selectFrom('op_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function managerRow(t: TestApp, id: number) {
  return t.db.db.selectFrom('manager').selectAll().where('id', '=', id).executeTakeFirst();
}
