import { applyChange } from '../../../../server/modules/ledger/ledger.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { credit } from '../deposits/fixtures';
import { actingAs } from '../system/fixtures';
import { makeMember } from './fixtures';

// Building an app on PostgreSQL under a busy machine can take more than the default 5 s.
jest.setTimeout(60_000);

describe(`asset query (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let a: { id: number; uid: string };
  let b: { id: number; uid: string };
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/query/list', { token: tk, query });

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    a = await makeMember(t, { phone: '18600000001', nickname: '甲' });
    b = await makeMember(t, { phone: '18600000002', nickname: '乙' });
    await credit(t, a.id, 'USDT', '100');
    await credit(t, a.id, 'LZ', '5.5');
    await credit(t, b.id, 'USDT', '20.25');
    await credit(t, b.id, 'ENERGY', '0.01');
    // 30 of a's USDT frozen (as a withdrawal request would)
    await t.db.db
      .transaction()
      .execute((trx) =>
        applyChange(
          trx,
          { memberId: a.id, asset: 'USDT', available: -30_000_000n, frozen: 30_000_000n, type: 2 },
          t.clock.now(),
        ),
      );
  });
  afterAll(() => t.close());

  it('lists one row per member and asset with available, frozen and total, and sums per asset', async () => {
    const r = await list({ keyword: '186', size: 100 });
    expect(r.code).toBe(200);
    expect(r.data.total).toBe(6);
    expect(r.data.list[0]).toEqual({
      memberId: b.id,
      uid: b.uid,
      phone: '18600000002',
      nickname: '乙',
      asset: expect.any(String),
      available: expect.any(String),
      frozen: '0',
      total: expect.any(String),
      updatedAt: expect.any(Number),
    });
    const usdtA = r.data.list.find(
      (x: { memberId: number; asset: string }) => x.memberId === a.id && x.asset === 'USDT',
    );
    expect(usdtA).toMatchObject({ available: '70', frozen: '30', total: '100' });
    expect(r.data.sum).toEqual([
      { asset: 'USDT', available: '90.25', frozen: '30', total: '120.25' },
      { asset: 'LZ', available: '5.5', frozen: '0', total: '5.5' },
      { asset: 'ENERGY', available: '0.01', frozen: '0', total: '0.01' },
    ]);
  });

  it('filters by keyword, asset and minimum total (in each row’s asset), and sorts by total', async () => {
    const rows = async (query: Record<string, unknown>) =>
      (await list({ size: 100, ...query })).data.list.map((x: { uid: string; asset: string }) => `${x.uid}:${x.asset}`);
    expect(await rows({ keyword: a.uid, asset: 'USDT' })).toEqual([`${a.uid}:USDT`]);
    expect(await rows({ keyword: '乙', minTotal: '0.01' })).toEqual([`${b.uid}:USDT`, `${b.uid}:ENERGY`]);
    expect(await rows({ keyword: '186', minTotal: '21' })).toEqual([`${a.uid}:USDT`]);
    expect(await rows({ keyword: '186', minTotal: '0.001', asset: 'ENERGY' })).toEqual([`${b.uid}:ENERGY`]);
    const sorted = await list({ keyword: '186', asset: 'USDT', sort: 'total', order: 'asc' });
    expect(sorted.data.list.map((x: { total: string }) => x.total)).toEqual(['20.25', '100']);
    expect(sorted.data.sum).toEqual([{ asset: 'USDT', available: '90.25', frozen: '30', total: '120.25' }]);
    const none = await list({ keyword: '99999999' });
    expect(none.data).toMatchObject({ total: 0, list: [] });
    expect(none.data.sum[0]).toEqual({ asset: 'USDT', available: '0', frozen: '0', total: '0' });
  });

  it('refuses bad filters naming the field, and answers 403 without query:view', async () => {
    expect(await list({ asset: 'BTC' })).toMatchObject({ code: 400, msg: '币种取值无效' });
    expect(await list({ minTotal: '-1' })).toMatchObject({ code: 400, msg: '最低总额格式不正确' });
    expect(await list({ minTotal: '0.0000001' })).toMatchObject({ code: 400, msg: '最低总额小数位数过多' });
    expect(await list({ sort: 'uid' })).toMatchObject({ code: 400, msg: '排序字段取值无效' });
    const other = await actingAs(t, 'noquery', ['member:view']);
    expect(await list({}, other.token)).toMatchObject({ code: 403, msg: '无权限' });
  });
});
