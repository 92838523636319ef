/**
 * Two managers acting on the same thing at once: the database decides, one succeeds and the other
 * gets a clear refusal, and the op log holds exactly one row per success. On PostgreSQL the calls
 * really run in parallel (a pool of connections); on SQLite they interleave between statements.
 */
import { ManagerMessages } from '../../../../server/modules/system/managers.service';
import { RoleMessages } from '../../../../server/modules/system/roles.service';
import { ADMIN_PASSWORD, build, dbKind, type TestApp } from '../../helpers';
import { PASSWORD, addManager, addRole, managerRow, opLogCount, sessionOf, superRoleId } from './fixtures';

const ROUNDS = 4;
const codes = (rs: Array<{ code: number }>) => rs.map((r) => r.code).sort();

describe(`concurrent changes (${dbKind})`, () => {
  let t: TestApp;
  let a: string;
  let b: string;
  beforeEach(async () => {
    t = await build();
    // Two super managers, each with a session.
    a = await t.login();
    b = await sessionOf(t, await addManager(t, 'boss0001', await superRoleId(t)));
  });
  afterEach(async () => {
    await t.close();
  });

  it('two deletes of one manager: one succeeds, the other gets 404', async () => {
    const role = await addRole(t, '财务');
    for (let i = 0; i < ROUNDS; i++) {
      const id = await addManager(t, `victim${i}`, role);
      const rs = await Promise.all(
        [a, b].map((token) => t.call('POST', '/v1/admin/user/delete', { token, body: { id } })),
      );
      expect(codes(rs)).toEqual([200, 404]);
      expect(rs.find((r) => r.code === 404)!.msg).toBe(ManagerMessages.notFound);
      expect(await managerRow(t, id)).toBeUndefined();
    }
    expect(await opLogCount(t)).toBe(ROUNDS);
  });

  it('two disables of one manager from the same list row: one succeeds, the other gets 409', async () => {
    const role = await addRole(t, '财务');
    for (let i = 0; i < ROUNDS; i++) {
      const id = await addManager(t, `target${i}`, role);
      const body = { id, version: 1, username: `target${i}`, roleId: role, status: 0 };
      const rs = await Promise.all([a, b].map((token) => t.call('POST', '/v1/admin/user/create', { token, body })));
      expect(codes(rs)).toEqual([200, 409]);
      expect(rs.find((r) => r.code === 409)!.msg).toBe(ManagerMessages.changedMeanwhile);
      expect(await managerRow(t, id)).toMatchObject({ status: 0, version: 2 });
    }
    expect(await opLogCount(t)).toBe(ROUNDS);
  });

  it.each([
    ['disabling', 'status'],
    ['demoting', 'role'],
  ])('two super managers %s each other at once: never both, one enabled super always remains', async (_, how) => {
    const superRole = await superRoleId(t);
    const idOf = async (username: string) =>
      Number(
        (await t.db.db.selectFrom('manager').select('id').where('username', '=', username).executeTakeFirstOrThrow())
          .id,
      );
    // Demoting to two different roles: the role rows locked on the way do not line the two up.
    const finance = await addRole(t, '财务');
    const support = await addRole(t, '客服');
    const change = (token: string, username: string, role: number) =>
      idOf(username).then((id) =>
        t.call('POST', '/v1/admin/user/create', {
          token,
          body:
            how === 'status'
              ? { id, version: 1, username, roleId: superRole, status: 0 }
              : { id, version: 1, username, roleId: role, status: 1 },
        }),
      );
    const rs = await Promise.all([change(a, 'boss0001', finance), change(b, 'admin', support)]);
    expect(rs.filter((r) => r.code === 200)).toHaveLength(1);
    // The loser is refused as the last super (400), finds his session ended (302, disabled) or
    // his role no longer super (403, demoted).
    const [loser] = rs.filter((r) => r.code !== 200);
    expect([400, how === 'status' ? 302 : 403]).toContain(loser.code);
    const enabledSupers = await t.db.db
      .selectFrom('manager')
      .select('id')
      .where('role_id', '=', superRole)
      .where('status', '=', 1)
      .execute();
    expect(enabledSupers).toHaveLength(1);
    expect(await opLogCount(t)).toBe(1);
  });

  it('two creates of one user name: one succeeds, the other is told the name exists', async () => {
    const role = await addRole(t, '财务');
    const rs = await Promise.all(
      [a, b].map((token) =>
        t.call('POST', '/v1/admin/user/create', {
          token,
          body: { username: 'twin0001', password: PASSWORD, roleId: role },
        }),
      ),
    );
    expect(codes(rs)).toEqual([200, 400]);
    expect(rs.find((r) => r.code === 400)!.msg).toBe(ManagerMessages.usernameTaken);
    expect(await opLogCount(t)).toBe(1);
  });

  it('deleting a role while a manager is given it: never a manager left on a deleted role', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const role = await addRole(t, `临时${i}`);
      const [created, deleted] = await Promise.all([
        t.call('POST', '/v1/admin/user/create', {
          token: a,
          body: { username: `temp${i}000`, password: PASSWORD, roleId: role },
        }),
        t.call('GET', '/v1/admin/role/delete', { token: b, query: { roleId: role } }),
      ]);
      expect([created.code, deleted.code].filter((c) => c === 200)).toHaveLength(1);
      if (created.code === 200) expect(deleted).toMatchObject({ code: 400, msg: RoleMessages.inUse });
      else expect(created).toMatchObject({ code: 400, msg: ManagerMessages.roleMissing });
    }
    expect(await opLogCount(t)).toBe(ROUNDS);
  });

  it('two password changes from two sessions of one manager: exactly one takes effect', async () => {
    const other = await t.login();
    const rs = await Promise.all(
      [
        [a, 'FirstNew11'],
        [other, 'SecondNew22'],
      ].map(([token, newPassword]) =>
        t.call('GET', '/v1/admin/user/password', { token, query: { oldPassword: ADMIN_PASSWORD, newPassword } }),
      ),
    );
    expect(rs.filter((r) => r.code === 200)).toHaveLength(1);
    const [loser] = rs.filter((r) => r.code !== 200);
    expect([400, 409, 302]).toContain(loser.code);
    const winner = rs[0].code === 200 ? 'FirstNew11' : 'SecondNew22';
    expect(await t.login('admin', winner)).toBeTruthy();
    expect(await opLogCount(t)).toBe(1);
  });
});
