import { allPermissions, permissionTree } from '../../../../domain/permissions';
import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, addRole, superRoleId } from './fixtures';

/** Every node of a returned tree with its checked flag, depth first. */
function flat(tree: any[]): Array<[string, boolean]> {
  return tree.flatMap((n) => [[n.code, n.checked] as [string, boolean], ...flat(n.children)]);
}
const checkedCodes = (tree: any[]) =>
  flat(tree)
    .filter(([, c]) => c)
    .map(([code]) => code);

describe(`user/permissions (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(async () => {
    await t.close();
  });
  const perms = (token: string, roleId?: number) =>
    t.call('GET', '/v1/admin/user/permissions', { token, query: roleId === undefined ? {} : { roleId } });

  it('gives any manager his own codes and the whole tree checked for his role', async () => {
    const m = await actingAs(t, 'clerk001', ['member', 'member:view', 'member:create']);
    const r = await perms(m.token);
    expect(r.code).toBe(200);
    expect(r.data.codes).toEqual(['password:update', 'member', 'member:view', 'member:create']);
    // The tree is the whole declaration, in its order, whatever the role holds.
    expect(flat(r.data.tree).map(([code]) => code)).toEqual(allPermissions.map((p) => p.code));
    expect(r.data.tree.map((n: any) => n.title)).toEqual(permissionTree.map((n) => n.title));
    expect(checkedCodes(r.data.tree)).toEqual(['password:update', 'member', 'member:view', 'member:create']);
    const system = r.data.tree[0];
    expect(system).toMatchObject({ id: 100, code: 'system', title: '系统管理', kind: 'group', checked: false });
    expect(system.children[2]).toMatchObject({ code: 'password:update', kind: 'page', always: true, checked: true });
    expect(system.children[0].children[0]).toMatchObject({ code: 'manager:create', kind: 'action', always: false });
  });

  it('gives the super manager every code', async () => {
    const r = await perms(await t.login());
    expect(r.data.codes).toEqual(allPermissions.map((p) => p.code));
    expect(flat(r.data.tree).every(([, c]) => c)).toBe(true);
  });

  it('with roleId gives that role’s codes and tree to a manager holding role:view', async () => {
    const viewer = await actingAs(t, 'viewer01', ['system', 'role:view']);
    const finance = await addRole(t, '财务', ['withdraw', 'withdraw:view', 'withdraw:audit']);
    const r = await perms(viewer.token, finance);
    expect(r.code).toBe(200);
    expect(r.data.codes).toEqual(['password:update', 'withdraw', 'withdraw:view', 'withdraw:audit']);
    expect(checkedCodes(r.data.tree)).toEqual(r.data.codes);
    const sup = await perms(viewer.token, await superRoleId(t));
    expect(sup.data.codes).toHaveLength(allPermissions.length);
  });

  it('with roleId refuses a manager without role:view (403), and answers an unknown role with 404', async () => {
    const m = await actingAs(t, 'clerk001', ['member', 'member:view', 'role:create']);
    expect(await perms(m.token, await superRoleId(t))).toEqual({ code: 403, msg: '无权限', data: null });
    const viewer = await actingAs(t, 'viewer01', ['role:view']);
    expect(await perms(viewer.token, 99999)).toEqual({ code: 404, msg: '角色不存在', data: null });
    expect(await perms(viewer.token, 'x' as any)).toEqual({ code: 400, msg: '角色格式不正确', data: null });
  });

  it('answers 301 without a session', async () => {
    expect((await perms('')).code).toBe(301);
  });
});
