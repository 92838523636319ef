import { getSetting } from '../../../../server/modules/settings/settings.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, opLogs } from '../system/fixtures';

const DAY = 86_400_000;

describe(`system settings and the LZ price (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const get = (tk = token) => t.call('GET', '/v1/admin/setting', { token: tk });
  const save = (body: Record<string, unknown>, tk = token) => t.call('POST', '/v1/admin/setting', { token: tk, body });

  beforeEach(async () => {
    t = await build();
    token = await t.login();
  });
  afterEach(() => t.close());

  it('answers every group with its defaults, then saves only the groups sent, logging each field old → new', async () => {
    // The serializer knows the decimal annotation: no "unknown format" warning on any answer.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    let first;
    try {
      first = await get();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
    expect(first.data).toMatchObject({
      platform: { name: 'LZ 社区' },
      register: { open: true, inviteReward: '0' },
      price: { lz: '0' },
      match: { payTimeoutMinutes: 30 },
      mall: { autoCompleteDays: 7 },
      updatedAt: null,
    });
    t.clock.advance(1000);
    const r = await save({
      platform: { name: '链社区' },
      mall: { autoCompleteDays: 10 },
      match: { payTimeoutMinutes: 45 },
      price: { lz: '0.125' },
      maintenance: { on: true, message: '系统维护中，预计 1 小时' },
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      platform: { name: '链社区' },
      price: { lz: '0.125' },
      service: { wechat: '', phone: '' },
      updatedAt: t.clock.now(),
      updatedBy: 'admin',
    });
    // The keys other modules read are the same settings.
    expect(await getSetting(t.db.db, 'mall')).toEqual({ autoCompleteDays: 10 });
    expect(await getSetting(t.db.db, 'match')).toEqual({ payTimeoutMinutes: 45 });
    const log = (await opLogs(t)).filter((l) => l.permission_code === 'setting:update');
    expect(log.map((l) => l.summary)).toEqual([
      '修改系统设置：平台名称：LZ 社区 → 链社区，维护模式：关 → 开，维护公告：（空） → 系统维护中，预计 1 小时，' +
        '撮合付款时限（分钟）：30 → 45，发货后自动完成（天）：7 → 10，LZ 价格（USDT）：（未设置） → 0.125',
    ]);
    // Saving the same values again changes nothing and says so.
    await save({ platform: { name: '链社区' }, price: { lz: '0.125000' } });
    expect((await opLogs(t)).at(-1)!.summary).toBe('修改系统设置（无变化）');
  });

  it('refuses each bad value with a message naming the field, and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ platform: { name: '  ' } }, '请填写平台名称'],
      [{ platform: { name: 'x'.repeat(31) } }, '平台名称'],
      [{ service: { wechat: 'kefu', phone: 'abc' } }, '客服电话只能包含数字、+、- 和空格'],
      [{ register: { open: true, inviteReward: '-1' } }, '邀请奖励（LZ）'],
      [{ register: { open: true, inviteReward: '1.00001' } }, '邀请奖励（LZ）'],
      [{ price: { lz: '0' } }, 'LZ 价格（USDT）'],
      [{ price: { lz: 0.5 } }, 'LZ 价格（USDT）'],
      [{ app: { version: 'v1', downloadUrl: '' } }, 'App 版本号格式应为 1.2.3'],
      [{ app: { version: '1.2.3', downloadUrl: 'javascript:alert(1)' } }, '下载地址必须以 http:// 或 https:// 开头'],
      [{ maintenance: { on: true, message: ' ' } }, '开启维护模式时请填写维护公告'],
      [{ match: { payTimeoutMinutes: 2 } }, '撮合付款时限（分钟）'],
      [{ mall: { autoCompleteDays: 31 } }, '发货后自动完成（天）'],
      [{ mall: { autoCompleteDays: 7, extra: 1 } }, '不支持的参数：extra'],
      [{ platform: { name: '平\u0000台' } }, '平台名称'],
      [{}, '没有要保存的设置'],
    ];
    for (const [body, msg] of cases) {
      const r = await save(body);
      expect([JSON.stringify(body), r.code]).toEqual([JSON.stringify(body), 400]);
      expect(r.msg).toContain(msg);
    }
    expect((await get()).data.updatedAt).toBeNull();
    expect((await opLogs(t)).filter((l) => l.permission_code === 'setting:update')).toEqual([]);
  });

  it('keeps the LZ price history: the price at the end of each of the last 30 days', async () => {
    const start = t.clock.now();
    t.clock.set(start - 40 * DAY);
    await save({ price: { lz: '0.1' } });
    t.clock.set(start - 10 * DAY);
    await save({ price: { lz: '0.2' } });
    await save({ price: { lz: '0.25' } });
    t.clock.set(start);
    await save({ price: { lz: '0.3' } });
    const p = (await t.call('GET', '/v1/admin/price', { token })).data;
    expect(p.now).toBe('0.3');
    expect(p.history).toHaveLength(30);
    const prices = p.history.map((h: { price: string }) => h.price);
    expect(prices.slice(0, 19).every((x: string) => x === '0.1')).toBe(true);
    // Day 19 had two changes: its point is the price at the day's end.
    expect(prices[19]).toBe('0.25');
    expect(prices.slice(20, 29).every((x: string) => x === '0.25')).toBe(true);
    expect(prices[29]).toBe('0.3');
    expect(p.history[29].date).toBe(new Date(start + 8 * 3600_000).toISOString().slice(0, 10));
  });

  it('refuses a save over a newer version: of managers saving over the same one, one wins', async () => {
    const loaded = (await get()).data.updatedAt ?? 0;
    t.clock.advance(1000);
    const saves = await Promise.all(
      ['甲', '乙', '丙', '丁', '戊'].map((n) => save({ platform: { name: `社区${n}` }, updatedAt: loaded })),
    );
    expect(saves.filter((r) => r.code === 200)).toHaveLength(1);
    for (const r of saves.filter((x) => x.code !== 200))
      expect(r).toMatchObject({ code: 409, msg: '系统设置已被其他管理员修改，请刷新后再保存' });
    const now = (await get()).data;
    expect(now.updatedAt).toBe(t.clock.now());
    t.clock.advance(1000);
    expect((await save({ service: { wechat: 'x', phone: '' }, updatedAt: now.updatedAt })).code).toBe(200);
    expect((await opLogs(t)).filter((l) => l.permission_code === 'setting:update')).toHaveLength(2);
  });

  it('enforces view and update permissions on the server', async () => {
    const viewer = await actingAs(t, 'viewer', ['setting:view']);
    expect((await get(viewer.token)).code).toBe(200);
    expect((await save({ platform: { name: 'x' } }, viewer.token)).code).toBe(403);
    expect((await t.call('GET', '/v1/admin/price', { token: viewer.token })).code).toBe(200);
    const other = await actingAs(t, 'other', ['member:view']);
    expect((await get(other.token)).code).toBe(403);
    expect((await t.call('GET', '/v1/admin/price', { token: other.token })).code).toBe(403);
  });
});
