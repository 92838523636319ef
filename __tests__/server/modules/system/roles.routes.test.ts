import { sql } from 'kysely';
import { allPermissions, permissionByCode } from '../../../../domain/permissions';
import { RoleMessages } from '../../../../server/modules/system/roles.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, addManager, addRole, opLogCount, opLogs, PASSWORD, superRoleId } from './fixtures';

const idOf = (code: string) => permissionByCode.get(code)!.id;

describe(`roles (${dbKind})`, () => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    t = await build();
    admin = await t.login();
  });
  afterEach(async () => {
    await t.close();
  });

  const list = (query: Record<string, unknown> = {}, token = admin) =>
    t.call('GET', '/v1/admin/role/list', { token, query });
  const saveRole = (body: Record<string, unknown>, token = admin) =>
    t.call('POST', '/v1/admin/role/create', { token, body });
  const bind = (roleId: number, permissionIds: number[], token = admin) =>
    t.call('POST', '/v1/admin/role/bind', { token, body: { roleId, permissionIds } });
  const deleteRole = (roleId: number, token = admin) =>
    t.call('GET', '/v1/admin/role/delete', { token, query: { roleId } });
  const grantsOf = async (roleId: number) =>
    (
      await t.db.db
        .selectFrom('role_permission')
        .select('permission_id')
        .where('role_id', '=', roleId)
        .orderBy('permission_id')
        .execute()
    ).map((r) => Number(r.permission_id));

  describe('role/list', () => {
    it('lists roles with their member count and granted ids (all of them for the super role)', async () => {
      const finance = await addRole(t, '财务', ['member', 'member:view']);
      await addManager(t, 'alice01', finance);
      await addManager(t, 'bob0001', finance);
      await addRole(t, '客服');
      const r = await list();
      expect(r.code).toBe(200);
      expect(r.data).toMatchObject({ total: 3, page: 1, size: 20 });
      const [sup, fin, sup2] = r.data.list;
      expect(sup).toMatchObject({ id: await superRoleId(t), name: '超级管理员', isSuper: true, managerCount: 1 });
      expect(sup.permissionIds).toEqual(allPermissions.map((p) => p.id));
      expect(fin).toMatchObject({
        id: finance,
        name: '财务',
        remark: '',
        isSuper: false,
        managerCount: 2,
        permissionIds: [idOf('member'), idOf('member:view')],
        createdAt: t.clock.now(),
      });
      expect(sup2).toMatchObject({ name: '客服', managerCount: 0, permissionIds: [] });
    });

    it('filters by part of the name and pages', async () => {
      await addRole(t, '财务一组');
      await addRole(t, '财务二组');
      await addRole(t, '客服');
      expect((await list({ name: '财务' })).data.list.map((r: any) => r.name)).toEqual(['财务一组', '财务二组']);
      const page2 = await list({ size: 2, page: 2 });
      expect(page2.data).toMatchObject({ total: 4, page: 2, size: 2 });
      expect(page2.data.list.map((r: any) => r.name)).toEqual(['财务二组', '客服']);
    });
  });

  describe('role/create', () => {
    it('creates a role with one op-log row, and edits it with another', async () => {
      const r = await saveRole({ name: '运营', remark: '日常运营' });
      expect(r.code).toBe(200);
      const id = r.data.id;
      expect((await list({ name: '运营' })).data.list[0]).toMatchObject({ id, name: '运营', remark: '日常运营' });
      expect((await saveRole({ id, name: '运营中心', remark: '日常运营' })).code).toBe(200);
      expect((await list({ name: '运营' })).data.list[0]).toMatchObject({ id, name: '运营中心' });
      const logs = await opLogs(t);
      expect(logs.map((l) => [l.permission_code, l.target, l.summary])).toEqual([
        ['role:create', `role#${id} (运营)`, '新增角色 运营'],
        ['role:create', `role#${id} (运营中心)`, '编辑角色 运营中心：名称 运营→运营中心'],
      ]);
    });

    it('refuses a name in use, a blank name and an unknown id, writing nothing', async () => {
      const finance = await addRole(t, '财务');
      const other = await addRole(t, '客服');
      expect(await saveRole({ name: '财务' })).toEqual({ code: 400, msg: RoleMessages.nameTaken, data: null });
      expect(await saveRole({ name: ' 超级管理员 ' })).toEqual({ code: 400, msg: RoleMessages.nameTaken, data: null });
      expect(await saveRole({ id: other, name: '财务' })).toEqual({
        code: 400,
        msg: RoleMessages.nameTaken,
        data: null,
      });
      expect(await saveRole({ name: '  ' })).toEqual({ code: 400, msg: RoleMessages.nameBlank, data: null });
      expect(await saveRole({ name: '' })).toEqual({ code: 400, msg: '角色名称不能为空', data: null });
      expect(await saveRole({ name: '很'.repeat(51) })).toMatchObject({
        code: 400,
        msg: '角色名称长度不能超过50个字符',
      });
      expect(await saveRole({ id: 99999, name: '新角色' })).toEqual({
        code: 404,
        msg: RoleMessages.notFound,
        data: null,
      });
      expect(await opLogCount(t)).toBe(0);
      // Keeping its own name is fine.
      expect((await saveRole({ id: finance, name: '财务', remark: '管钱' })).code).toBe(200);
    });
  });

  describe('role/bind', () => {
    it('stores the grant closed upward, bumps perm_version, and the role’s managers see it at once', async () => {
      const role = await addRole(t, '财务');
      await addManager(t, 'alice01', role);
      const token = await t.login('alice01', PASSWORD);
      expect((await t.call('GET', '/v1/admin/user/list', { token })).code).toBe(403);
      const before = await t.db.db
        .selectFrom('role')
        .select('perm_version')
        .where('id', '=', role)
        .executeTakeFirstOrThrow();

      const r = await bind(role, [idOf('manager:create'), idOf('oplog:view')]);
      expect(r).toEqual({
        code: 200,
        msg: 'ok',
        data: {
          roleId: role,
          permissionIds: [idOf('system'), idOf('manager:view'), idOf('manager:create'), idOf('oplog:view')],
        },
      });
      expect(await grantsOf(role)).toEqual(r.data.permissionIds);
      const after = await t.db.db
        .selectFrom('role')
        .select('perm_version')
        .where('id', '=', role)
        .executeTakeFirstOrThrow();
      expect(after.perm_version).toBe(before.perm_version + 1);
      expect((await t.call('GET', '/v1/admin/user/list', { token })).code).toBe(200);
      const menu = await t.call('GET', '/v1/admin/user/menu', { token });
      expect(menu.data[0].sub.map((s: any) => s.title)).toEqual(['管理员', '修改密码']);

      // Rebinding replaces the grant: he loses what is no longer listed.
      expect((await bind(role, [idOf('role:view')])).code).toBe(200);
      expect((await t.call('GET', '/v1/admin/user/list', { token })).code).toBe(403);
      expect((await t.call('GET', '/v1/admin/role/list', { token })).code).toBe(200);

      const logs = await opLogs(t);
      expect(logs).toHaveLength(2);
      expect(logs[0]).toMatchObject({
        permission_code: 'role:bind',
        target: `role#${role} (财务)`,
        summary: '为角色 财务 分配权限（3项）：管理员、新增/编辑管理员、查看操作日志',
      });
    });

    it('leaves grant and version alone when the op-log row cannot be written', async () => {
      const role = await addRole(t, '财务', ['member', 'member:view']);
      const version = async () =>
        (await t.db.db.selectFrom('role').select('perm_version').where('id', '=', role).executeTakeFirstOrThrow())
          .perm_version;
      const before = await version();
      await sql`drop table op_log`.execute(t.db.db);
      expect((await bind(role, [idOf('role:view')])).code).toBe(500);
      expect(await grantsOf(role)).toEqual([idOf('member'), idOf('member:view')]);
      expect(await version()).toBe(before);
      expect((await deleteRole(role)).code).toBe(500);
      expect((await saveRole({ name: '新角色' })).code).toBe(500);
      expect((await t.db.db.selectFrom('role').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual([
        '超级管理员',
        '财务',
      ]);
    });

    it('binds an empty set', async () => {
      const role = await addRole(t, '财务', ['member', 'member:view']);
      expect(await bind(role, [])).toMatchObject({ code: 200, data: { permissionIds: [] } });
      expect(await grantsOf(role)).toEqual([]);
    });

    it('refuses unknown permission ids, leaving the grant as it was', async () => {
      const role = await addRole(t, '财务', ['member', 'member:view']);
      expect(await bind(role, [idOf('member:create'), 424242, 99])).toEqual({
        code: 400,
        msg: '权限不存在：424242，99',
        data: null,
      });
      expect(await grantsOf(role)).toEqual([idOf('member'), idOf('member:view')]);
      expect(await opLogCount(t)).toBe(0);
    });

    it('refuses the super role with 400 and an unknown role with 404', async () => {
      expect(await bind(await superRoleId(t), [idOf('member:view')])).toEqual({
        code: 400,
        msg: '超级管理员角色不可修改',
        data: null,
      });
      expect(await grantsOf(await superRoleId(t))).toEqual([]);
      expect(await bind(99999, [])).toEqual({ code: 404, msg: RoleMessages.notFound, data: null });
      expect(await t.call('POST', '/v1/admin/role/bind', { token: admin, body: { roleId: 1 } })).toEqual({
        code: 400,
        msg: '权限不能为空',
        data: null,
      });
      expect(await opLogCount(t)).toBe(0);
    });
  });

  describe('role/delete', () => {
    it('deletes an unused role with its grants and one op-log row', async () => {
      const role = await addRole(t, '临时', ['member', 'member:view']);
      expect(await deleteRole(role)).toEqual({ code: 200, msg: 'ok', data: null });
      expect(await t.db.db.selectFrom('role').select('id').where('id', '=', role).executeTakeFirst()).toBeUndefined();
      expect(await grantsOf(role)).toEqual([]);
      expect((await opLogs(t))[0]).toMatchObject({ permission_code: 'role:delete', summary: '删除角色 临时' });
    });

    it('refuses while a manager holds the role, even a disabled one', async () => {
      const role = await addRole(t, '财务');
      await addManager(t, 'alice01', role, 0);
      expect(await deleteRole(role)).toEqual({ code: 400, msg: '该角色下还有管理员，无法删除', data: null });
      expect((await list({ name: '财务' })).data.total).toBe(1);
      expect(await opLogCount(t)).toBe(0);
    });

    it('refuses the super role, and answers an unknown role with 404', async () => {
      expect(await deleteRole(await superRoleId(t))).toEqual({
        code: 400,
        msg: RoleMessages.superUndeletable,
        data: null,
      });
      expect(await deleteRole(99999)).toEqual({ code: 404, msg: RoleMessages.notFound, data: null });
      expect(await t.call('GET', '/v1/admin/role/delete', { token: admin })).toEqual({
        code: 400,
        msg: '角色不能为空',
        data: null,
      });
      expect(await opLogCount(t)).toBe(0);
    });

    it('a role made after deleting another never inherits its cached grants', async () => {
      // SQLite may hand the deleted role's id to the next one; the grant cache must not mix them up.
      const m = await actingAs(t, 'probe001', []);
      const old = await saveRole({ name: '旧角色' });
      expect((await bind(old.data.id, [idOf('member:view')])).code).toBe(200);
      await t.db.db.updateTable('manager').set({ role_id: old.data.id }).where('id', '=', m.id).execute();
      const own = async () => (await t.call('GET', '/v1/admin/user/permissions', { token: m.token })).data.codes;
      expect(await own()).toEqual(['password:update', 'member', 'member:view']);
      await t.db.db.updateTable('manager').set({ role_id: m.roleId }).where('id', '=', m.id).execute();
      expect((await deleteRole(old.data.id)).code).toBe(200);
      const fresh = await saveRole({ name: '新角色' });
      await t.db.db.updateTable('manager').set({ role_id: fresh.data.id }).where('id', '=', m.id).execute();
      expect(await own()).toEqual(['password:update']);
      // Bound once, like the old role was: its version must not meet the old role's cached one.
      expect((await bind(fresh.data.id, [idOf('role:view')])).code).toBe(200);
      expect(await own()).toEqual(['system', 'role:view', 'password:update']);
    });
  });
});
