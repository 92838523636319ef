import { BillType } from '../../../../domain/bills';
import { listBills } from '../../../../server/modules/bills/bills.service';
import { applyChange } from '../../../../server/modules/ledger/ledger.service';
import { transfer } from '../../../../server/modules/transfers/transfers.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, credit } from '../deposits/fixtures';
import { actingAs } from '../system/fixtures';

// build() migrates a fresh database (a PostgreSQL schema) per test: slow on a shared machine.
jest.setTimeout(60_000);

describe(`bills and energy changes (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let alice: number;
  let bob: number;
  let bobUid: string;
  const bills = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/bill', { token: tk, query });
  const changes = (body: Record<string, unknown> = {}, tk = token) =>
    t.call('POST', '/v1/admin/change/list', { token: tk, body });
  const energy = (memberId: number, amount: bigint, type: 10 | 17) =>
    t.db.db
      .transaction()
      .execute((trx) => applyChange(trx, { memberId, asset: 'ENERGY', available: amount, type }, t.clock.now()));

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    alice = await addMember(t);
    bob = await addMember(t);
    bobUid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', bob).executeTakeFirstOrThrow()).uid;
    await credit(t, alice, 'USDT', '1000'); // bill 1: 16 后台调整
    t.clock.advance(60_000);
    await transfer(t.app.ctx, { fromMemberId: alice, toUid: bobUid, asset: 'USDT', amount: '100' }); // bills 2, 3
    t.clock.advance(60_000);
    await energy(bob, 5000n, 10); // 50 ENERGY 种子释放
    await energy(bob, -1250n, 17); // -12.5 能量消耗
  });
  afterEach(() => t.close());

  it('bill/types lists the 17 types with their labels', async () => {
    const r = await bills();
    expect(r.code).toBe(200);
    const types = await t.call('GET', '/v1/admin/bill/types', { token });
    expect(types.data).toHaveLength(17);
    expect(types.data[0]).toEqual({ type: 1, label: '充值' });
    expect(types.data[16]).toEqual({ type: 17, label: '能量消耗' });
    const energyViewer = await actingAs(t, 'energy', ['change:view']);
    expect((await t.call('GET', '/v1/admin/bill/types', { token: energyViewer.token })).code).toBe(200);
    const nobody = await actingAs(t, 'nobody', ['member:view']);
    expect(await t.call('GET', '/v1/admin/bill/types', { token: nobody.token })).toMatchObject({ code: 403 });
  });

  it('lists bills newest first with member, amounts per asset, reference and per-asset sums', async () => {
    const r = await bills();
    expect(r.data).toMatchObject({ total: 5, totalCapped: false, page: 1, size: 20 });
    expect(r.data.list.map((b: { type: number }) => b.type)).toEqual([17, 10, 6, 5, 16]);
    expect(r.data.list[3]).toMatchObject({
      memberId: alice,
      asset: 'USDT',
      type: BillType.transferOut,
      change: '-101',
      availableAfter: '899',
      frozenChange: '0',
      frozenAfter: '0',
      refKind: 'transfer',
      refId: expect.any(Number),
    });
    expect(r.data.list[0]).toMatchObject({ asset: 'ENERGY', change: '-12.5', availableAfter: '37.5' });
    expect(r.data.sum).toEqual({
      byAsset: [
        { asset: 'ENERGY', change: '37.5', frozenChange: '0' },
        { asset: 'USDT', change: '999', frozenChange: '0' },
      ],
    });
  });

  it('filters by keyword (uid, phone prefix), member, asset, type and range', async () => {
    const ids = async (q: Record<string, unknown>) =>
      (await bills(q)).data.list.map((b: { type: number }) => b.type) as number[];
    expect(await ids({ keyword: bobUid })).toEqual([17, 10, 6]);
    const phone = (await t.db.db.selectFrom('member').select('phone').where('id', '=', alice).executeTakeFirstOrThrow())
      .phone;
    expect(await ids({ keyword: phone })).toEqual([5, 16]);
    expect(await ids({ memberId: alice })).toEqual([5, 16]);
    expect(await ids({ asset: 'USDT' })).toEqual([6, 5, 16]);
    expect(await ids({ type: 6 })).toEqual([6]);
    expect(await ids({ start: String(t.clock.now() - 1000) })).toEqual([17, 10]);
    expect(await ids({ end: String(t.clock.now() - 90_000) })).toEqual([16]);
    expect(await ids({ size: 2, page: 2 })).toEqual([6, 5]);
    expect(await ids({ order: 'asc', size: 1 })).toEqual([16]);
    expect((await bills({ keyword: 'nobody' })).data).toMatchObject({ total: 0, list: [], sum: { byAsset: [] } });
  });

  it('counts a member filter up to the cap and drops its sum past it; other filters stay exact', async () => {
    const q = { page: 1, size: 2 };
    const all = await listBills(t.app.ctx, q, 3);
    expect(all).toMatchObject({ total: 5, totalCapped: false, sum: { byAsset: expect.any(Array) } });
    expect((await listBills(t.app.ctx, { ...q, page: 3 }, 3)).list).toHaveLength(1);
    const bobs = await listBills(t.app.ctx, { ...q, memberId: bob }, 2);
    expect(bobs).toMatchObject({ total: 2, totalCapped: true, sum: null });
    // Paging goes on past the capped count, by page number and by cursor.
    expect((await listBills(t.app.ctx, { ...q, memberId: bob, page: 2 }, 2)).list).toHaveLength(1);
    expect((await listBills(t.app.ctx, { ...q, memberId: bob, after: bobs.next! }, 2)).list).toHaveLength(1);
    expect(await listBills(t.app.ctx, { ...q, memberId: alice }, 3)).toMatchObject({
      total: 2,
      totalCapped: false,
      sum: { byAsset: [{ asset: 'USDT', change: '899' }] },
    });
    // exactly at the cap is still exact
    expect(await listBills(t.app.ctx, { ...q, memberId: bob }, 3)).toMatchObject({ total: 3, totalCapped: false });
  });

  it('change/list gives the ENERGY bills with the same filters from the body', async () => {
    const r = await changes({});
    expect(r.data).toMatchObject({ total: 2, totalCapped: false });
    expect(r.data.list.map((b: { type: number; asset: string }) => [b.type, b.asset])).toEqual([
      [17, 'ENERGY'],
      [10, 'ENERGY'],
    ]);
    expect(r.data.sum).toEqual({ byAsset: [{ asset: 'ENERGY', change: '37.5', frozenChange: '0' }] });
    expect((await changes({ type: 10 })).data.total).toBe(1);
    expect((await changes({ keyword: bobUid, page: 1, size: 1 })).data.list).toHaveLength(1);
    expect((await changes({ memberId: alice })).data.total).toBe(0);
  });

  it('refuses bad input naming the field, and managers without the page’s code', async () => {
    expect(await bills({ type: 99 })).toMatchObject({ code: 400, msg: expect.stringContaining('类型') });
    expect(await bills({ asset: 'BTC' })).toMatchObject({ code: 400, msg: expect.stringContaining('资产') });
    expect(await bills({ size: 1000 })).toMatchObject({ code: 400, msg: expect.stringContaining('每页条数') });
    expect(await bills({ start: '2026-11-20', end: '2026-11-01' })).toMatchObject({
      code: 400,
      msg: '开始时间不能晚于结束时间',
    });
    expect(await changes({ asset: 'USDT' })).toMatchObject({ code: 400 });
    expect(await changes({ memberId: 'x' })).toMatchObject({ code: 400, msg: expect.stringContaining('会员ID') });
    const billViewer = await actingAs(t, 'bills', ['bill:view']);
    const changeViewer = await actingAs(t, 'changes', ['change:view']);
    expect(await changes({}, billViewer.token)).toMatchObject({ code: 403, msg: '无权限' });
    expect(await bills({}, changeViewer.token)).toMatchObject({ code: 403, msg: '无权限' });
    expect((await bills({}, billViewer.token)).code).toBe(200);
    expect((await changes({}, changeViewer.token)).code).toBe(200);
  });
});
