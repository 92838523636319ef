import { permissionByCode } from '../../../../domain/permissions';
import { DEMO_MANAGERS, DEMO_ROLES, seedSystemDemo } from '../../../../server/modules/system/system.demo';
import { build, dbKind, type TestApp } from '../../helpers';
import { opLogs } from './fixtures';

describe(`system demo data (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(async () => {
    await t.close();
  });

  it('creates the demo roles with their grants and the demo managers through the services, logged as admin', async () => {
    await seedSystemDemo(t.app.ctx);
    const admin = await t.login();
    const roles = (await t.call('GET', '/v1/admin/role/list', { token: admin })).data.list;
    expect(roles.map((r: any) => r.name)).toEqual(['超级管理员', '财务', '客服', '运营']);
    const finance = roles.find((r: any) => r.name === '财务');
    expect(finance.managerCount).toBe(2);
    expect(finance.permissionIds).toEqual(
      expect.arrayContaining([permissionByCode.get('withdraw:audit')!.id, permissionByCode.get('withdraw')!.id]),
    );
    const managers = (await t.call('GET', '/v1/admin/user/list', { token: admin })).data.list;
    expect(managers.map((m: any) => [m.username, m.roleName, m.status])).toEqual([
      ['admin', '超级管理员', 1],
      ...DEMO_MANAGERS.map((m) => [m.username, m.role, m.status]),
    ]);
    const logs = await opLogs(t);
    expect(logs).toHaveLength(DEMO_ROLES.length * 2 + DEMO_MANAGERS.length);
    expect(new Set(logs.map((l) => l.username))).toEqual(new Set(['admin']));
  });

  it('gives a demo role’s manager only his role’s menu', async () => {
    await seedSystemDemo(t.app.ctx);
    const admin = await t.login();
    const list = (await t.call('GET', '/v1/admin/user/list', { token: admin, query: { username: 'kefu001' } })).data;
    const [kefu] = list.list;
    expect(
      (
        await t.call('POST', '/v1/admin/user/create', {
          token: admin,
          body: {
            id: kefu.id,
            version: kefu.version,
            username: 'kefu001',
            password: 'Kefu123456',
            roleId: kefu.roleId,
          },
        })
      ).code,
    ).toBe(200);
    const token = await t.login('kefu001', 'Kefu123456');
    const menu = (await t.call('GET', '/v1/admin/user/menu', { token })).data;
    expect(menu.map((m: any) => m.name)).toEqual(expect.arrayContaining(['systemLayout', 'memberLayout']));
    expect(menu.map((m: any) => m.name)).not.toContain('withdrawLayout');
    expect((await t.call('GET', '/v1/admin/user/list', { token })).code).toBe(403);
  });
});
