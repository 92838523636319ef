import { balancesOf, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { transfer } from '../../../../server/modules/transfers/transfers.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, billsOf, credit } from '../deposits/fixtures';
import { actingAs } from '../system/fixtures';

// build() migrates a fresh database (a PostgreSQL schema) per test: slow on a shared machine.
jest.setTimeout(60_000);

describe(`transfers (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let alice: number;
  let bob: number;
  let bobUid: string;
  let aliceUid: string;
  const uidOf = async (id: number) =>
    (await t.db.db.selectFrom('member').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid;
  const send = (over: Partial<Parameters<typeof transfer>[1]> = {}) =>
    transfer(t.app.ctx, { fromMemberId: alice, toUid: bobUid, asset: 'USDT', amount: '100', ...over });
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/transfer/list', { token: tk, query });

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    alice = await addMember(t);
    bob = await addMember(t);
    aliceUid = await uidOf(alice);
    bobUid = await uidOf(bob);
    await credit(t, alice, 'USDT', '1000');
    await credit(t, alice, 'LZ', '50');
  });
  afterEach(() => t.close());

  describe('transfer (member side)', () => {
    it('runs opposite transfers at once without a deadlock, each exactly once', async () => {
      await credit(t, bob, 'USDT', '1000');
      const both = Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? send({ amount: '10' }) : send({ fromMemberId: bob, toUid: aliceUid, amount: '10' }),
      );
      const results = await Promise.allSettled(both);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      // Each side sent 10 × 10.1 and received 10 × 10.
      expect((await balancesOf(t.db.db, alice)).USDT.available).toBe(999_000_000n);
      expect((await balancesOf(t.db.db, bob)).USDT.available).toBe(999_000_000n);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('moves amount + 1% fee out of the sender and amount into the receiver, with two bills', async () => {
      const r = await send({ amount: '100' });
      expect(r).toMatchObject({ amount: '100', fee: '1' });
      expect((await balancesOf(t.db.db, alice)).USDT.available).toBe(899_000_000n);
      expect((await balancesOf(t.db.db, bob)).USDT.available).toBe(100_000_000n);
      expect((await billsOf(t, alice)).at(-1)).toMatchObject({
        type: 5,
        change: '-101000000',
        ref_kind: 'transfer',
        ref_id: r.id,
      });
      expect(await billsOf(t, bob)).toEqual([
        { type: 6, asset: 'USDT', change: '100000000', frozen: '0', ref_kind: 'transfer', ref_id: r.id },
      ]);
      // the fee is rounded up to the minor unit: 0.0001 LZ × 1% → 0.0001
      expect(await send({ asset: 'LZ', amount: '0.0001' })).toMatchObject({ fee: '0.0001' });
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('refuses every invalid transfer and leaves nothing behind', async () => {
      await expect(send({ asset: 'ENERGY' })).rejects.toMatchObject({ code: 400, message: '该资产不支持转账' });
      await expect(send({ amount: '0' })).rejects.toMatchObject({ code: 400 });
      await expect(send({ amount: '1.0000001' })).rejects.toMatchObject({ code: 400 });
      await expect(send({ amount: '-5' })).rejects.toMatchObject({ code: 400 });
      await expect(send({ toUid: '00000000' })).rejects.toMatchObject({ message: '收款会员不存在' });
      await expect(send({ toUid: aliceUid })).rejects.toMatchObject({ message: '不能转账给自己' });
      await expect(send({ fromMemberId: 999999 })).rejects.toMatchObject({ message: '会员不存在' });
      // 995 + 9.95 fee > 1000
      await expect(send({ amount: '995' })).rejects.toMatchObject({ code: 400, message: '可用余额不足' });
      const frozen = await addMember(t, { status: 2 });
      await credit(t, frozen, 'USDT', '10');
      await expect(send({ fromMemberId: frozen, amount: '1' })).rejects.toMatchObject({ message: '会员已冻结' });
      const banned = await addMember(t, { status: 3 });
      await credit(t, banned, 'USDT', '10');
      await expect(send({ fromMemberId: banned, amount: '1' })).rejects.toMatchObject({
        message: '该会员已被禁止提现，不能转出',
      });
      await expect(send({ toUid: await uidOf(frozen) })).rejects.toMatchObject({ message: '收款会员已冻结' });
      expect(await t.db.db.selectFrom('transfer').selectAll().execute()).toEqual([]);
      expect((await balancesOf(t.db.db, alice)).USDT.available).toBe(1_000_000_000n);
      expect(await billsOf(t, bob)).toEqual([]);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });
  });

  describe('transfer/list', () => {
    it('lists newest first with both sides, filters by uid on either side, asset and range, and sums per asset', async () => {
      const carol = await addMember(t);
      const a = await send({ amount: '100' });
      t.clock.advance(60_000);
      const b = await send({ asset: 'LZ', amount: '10' });
      t.clock.advance(60_000);
      const c = await send({ toUid: await uidOf(carol), amount: '50.5' });
      const all = await list();
      expect(all.data).toMatchObject({ total: 3, page: 1, size: 20 });
      expect(all.data.list.map((r: { id: number }) => r.id)).toEqual([c.id, b.id, a.id]);
      expect(all.data.list[2]).toMatchObject({
        fromUid: aliceUid,
        toUid: bobUid,
        asset: 'USDT',
        amount: '100',
        fee: '1',
        fromMemberId: alice,
        toMemberId: bob,
      });
      expect(all.data.sum).toEqual({
        count: 3,
        byAsset: [
          { asset: 'LZ', amount: '10', fee: '0.1' },
          { asset: 'USDT', amount: '150.5', fee: '1.505' },
        ],
      });
      expect((await list({ uid: bobUid })).data.total).toBe(2);
      expect((await list({ uid: aliceUid })).data.total).toBe(3);
      expect((await list({ uid: '99999999' })).data).toMatchObject({ total: 0, list: [] });
      expect((await list({ asset: 'LZ' })).data.sum).toEqual({
        count: 1,
        byAsset: [{ asset: 'LZ', amount: '10', fee: '0.1' }],
      });
      expect((await list({ start: String(t.clock.now() - 1000) })).data.total).toBe(1);
      expect((await list({ size: 1, page: 3 })).data.list[0].id).toBe(a.id);
    });

    it('refuses bad filters naming the field and a manager without transfer:view', async () => {
      expect(await list({ asset: 'ENERGY' })).toMatchObject({ code: 400, msg: expect.stringContaining('资产') });
      expect(await list({ uid: 'abc' })).toMatchObject({ code: 400, msg: expect.stringContaining('会员UID') });
      expect(await list({ start: '2026-13-01' })).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
      const nobody = await actingAs(t, 'nobody', ['bill:view']);
      expect(await list({}, nobody.token)).toMatchObject({ code: 403, msg: '无权限' });
    });
  });
});
