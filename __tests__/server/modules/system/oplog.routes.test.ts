import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, addRole } from './fixtures';

describe(`user/opt/list (${dbKind})`, () => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    // The history below spans a day: keep the sessions alive across it.
    t = await build({ config: { tokenIdleHours: 48 } });
    admin = await t.login();
  });
  afterEach(async () => {
    await t.close();
  });
  const logs = (query: Record<string, unknown> = {}, token = admin) =>
    t.call('GET', '/v1/admin/user/opt/list', { token, query });

  /** Three changes by two managers on two days (2026-11-22 and 2026-11-23, Shanghai time). */
  async function history() {
    const hr = await actingAs(t, 'hrstaff1', ['manager:view', 'manager:create', 'role:view', 'role:create']);
    const finance = await addRole(t, '财务');
    t.clock.set(Date.parse('2026-11-22T10:00:00+08:00'));
    await t.call('POST', '/v1/admin/role/create', { token: admin, body: { name: '客服' } });
    t.clock.set(Date.parse('2026-11-23T09:00:00+08:00'));
    await t.call('POST', '/v1/admin/user/create', {
      token: hr.token,
      body: { username: 'clerk001', password: 'Clerk12345', roleId: finance },
    });
    t.clock.set(Date.parse('2026-11-23T09:30:00+08:00'));
    await t.call('POST', '/v1/admin/role/create', { token: hr.token, body: { name: '运营' } });
  }

  it('lists every change newest first, with the action’s title, target, summary, address and time', async () => {
    await history();
    const r = await logs();
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ total: 3, page: 1, size: 20 });
    expect(r.data.list.map((l: any) => l.summary)).toEqual([
      '新增角色 运营',
      '新增管理员 clerk001（角色：财务，状态：启用）',
      '新增角色 客服',
    ]);
    expect(r.data.list[1]).toMatchObject({
      username: 'hrstaff1',
      code: 'manager:create',
      codeTitle: '新增/编辑管理员',
      target: expect.stringMatching(/^manager#\d+ \(clerk001\)$/),
      ip: '127.0.0.1',
      createdAt: Date.parse('2026-11-23T09:00:00+08:00'),
    });
  });

  it('filters by user name, action code and Shanghai dates, and pages', async () => {
    await history();
    const summaries = async (query: Record<string, unknown>) =>
      (await logs(query)).data.list.map((l: any) => l.summary);
    expect(await summaries({ username: 'admin' })).toEqual(['新增角色 客服']);
    expect(await summaries({ code: 'role:create' })).toEqual(['新增角色 运营', '新增角色 客服']);
    expect(await summaries({ code: 'role:create', username: 'hrstaff1' })).toEqual(['新增角色 运营']);
    expect(await summaries({ start: '2026-11-23', end: '2026-11-23' })).toHaveLength(2);
    expect(await summaries({ end: '2026-11-22' })).toEqual(['新增角色 客服']);
    expect(await summaries({ start: '2026-11-23 09:15:00' })).toEqual(['新增角色 运营']);
    expect(await summaries({ size: 1, page: 2 })).toEqual(['新增管理员 clerk001（角色：财务，状态：启用）']);
    expect(await summaries({ username: 'nobody' })).toEqual([]);
    expect((await summaries({ order: 'asc' }))[0]).toBe('新增角色 客服');
  });

  it('refuses a bad date or a reversed range with 400', async () => {
    expect(await logs({ start: 'yesterday' })).toEqual({ code: 400, msg: '开始时间格式不正确', data: null });
    expect(await logs({ start: '2026-11-23', end: '2026-11-22' })).toEqual({
      code: 400,
      msg: '开始时间不能晚于结束时间',
      data: null,
    });
  });
});
