import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { matchStatViolations } from '../../../../server/modules/matches/matches.repository';
import {
  appeal,
  confirmReceipt,
  expireMatches,
  markPaid,
  openMatch,
} from '../../../../server/modules/matches/matches.service';
import { addPaymentMethod, paymentOpt } from '../../../../server/modules/payments/payments.service';
import { putSetting } from '../../../../server/modules/settings/settings.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, billsOf, credit } from '../deposits/fixtures';
import { actingAs, adminId, opLogCount, opLogs } from '../system/fixtures';

const MIN = 60_000;
const PROOF = '/uploads/demo/proof-1.png';

describe(`matches (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let seller: number;
  let buyer: number;
  /** 100 LZ at 0.5 USDT */
  const open = (over: Partial<Parameters<typeof openMatch>[1]> = {}) =>
    openMatch(t.app.ctx, { sellerId: seller, buyerId: buyer, quantity: 1_000_000n, unitPrice: 500_000n, ...over });
  const opt = (body: Record<string, unknown>, tk = token) => t.call('POST', '/v1/admin/match/opt', { token: tk, body });
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/match/list', { token: tk, query });
  const row = (id: number) =>
    t.db.db.selectFrom('match_trade').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lz = async (id: number) => (await balancesOf(t.db.db, id)).LZ;
  const uidOf = async (id: number) =>
    (await t.db.db.selectFrom('member').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid;
  const consistent = async () => {
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await matchStatViolations(t.db.db)).toEqual([]);
  };

  /** A member with an approved Alipay method and 1,000 LZ. */
  async function trader() {
    const id = await addMember(t);
    const m = await addPaymentMethod(t.app.ctx, {
      memberId: id,
      type: 2,
      holder: '王芳',
      account: `138${String(id).padStart(8, '0')}`,
      qrUrl: '/uploads/demo/qr.png',
    });
    await paymentOpt(
      t.app.ctx,
      { managerId: await adminId(t), username: 'admin', ip: '127.0.0.1' },
      { id: m.id, action: 'approve' },
    );
    await credit(t, id, 'LZ', '1000');
    return id;
  }

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    seller = await trader();
    buyer = await trader();
  });
  afterEach(() => t.close());

  describe('member side', () => {
    it('opens with the LZ frozen (bill 撮合冻结), a payment snapshot and the deadline of the setting', async () => {
      const m = await open({ quantity: 1_234_567n, unitPrice: 123_457n }); // 123.4567 LZ × 0.123457
      expect(m).toMatchObject({ status: 1, total: '15.241594', expiresAt: t.clock.now() + 30 * MIN });
      expect(await lz(seller)).toEqual({ available: 8_765_433n, frozen: 1_234_567n });
      expect((await billsOf(t, seller)).at(-1)).toEqual({
        type: 13,
        asset: 'LZ',
        change: '-1234567',
        frozen: '1234567',
        ref_kind: 'match',
        ref_id: m.id,
      });
      const r = await row(m.id);
      expect(JSON.parse(r.payment)).toEqual({
        type: 2,
        name: '王芳',
        account: `138${String(seller).padStart(8, '0')}`,
        bank: '',
        qrUrl: '/uploads/demo/qr.png',
      });
      await t.db.db.transaction().execute((trx) => putSetting(trx, 'match', { payTimeoutMinutes: 5 }, 'admin', 0));
      expect((await open()).expiresAt).toBe(t.clock.now() + 5 * MIN);
      await consistent();
    });

    it('refuses itself, no approved payment method, bad amounts and a short balance', async () => {
      const poor = await addMember(t);
      await expect(open({ buyerId: seller })).rejects.toThrow('买家和卖家不能是同一会员');
      await expect(open({ sellerId: poor })).rejects.toThrow('卖家没有已通过审核的收款方式');
      await expect(open({ quantity: 0n })).rejects.toThrow('撮合数量必须大于0');
      await expect(open({ unitPrice: 0n })).rejects.toThrow('单价必须大于0');
      await expect(open({ quantity: 1n, unitPrice: 1n })).rejects.toThrow('撮合总额过小');
      await expect(open({ buyerId: 999999 })).rejects.toThrow('买家不存在');
      await expect(open({ quantity: 10_000_001n })).rejects.toThrow('可用余额不足');
      expect(await t.db.db.selectFrom('match_trade').select('id').execute()).toHaveLength(0);
      await consistent();
    });

    it('pay, confirm: the buyer gets the LZ (bills 撮合成交 on both sides); only the parties may act', async () => {
      const m = await open();
      await expect(markPaid(t.app.ctx, { matchId: m.id, buyerId: seller, proofUrl: PROOF })).rejects.toThrow(
        '只有买家可以确认付款',
      );
      await expect(markPaid(t.app.ctx, { matchId: m.id, buyerId: buyer, proofUrl: ' ' })).rejects.toThrow(
        '付款凭证不能为空',
      );
      await expect(confirmReceipt(t.app.ctx, { matchId: m.id, sellerId: seller })).rejects.toThrow('该撮合已处理');
      expect(await markPaid(t.app.ctx, { matchId: m.id, buyerId: buyer, proofUrl: PROOF })).toEqual({
        id: m.id,
        status: 2,
      });
      expect(await row(m.id)).toMatchObject({ status: 2, proof_url: PROOF, paid_at: t.clock.now() });
      await expect(confirmReceipt(t.app.ctx, { matchId: m.id, sellerId: buyer })).rejects.toThrow(
        '只有卖家可以确认收款',
      );
      await expect(confirmReceipt(t.app.ctx, { matchId: 99999, sellerId: seller })).rejects.toThrow('撮合记录不存在');
      expect(await confirmReceipt(t.app.ctx, { matchId: m.id, sellerId: seller })).toEqual({ id: m.id, status: 3 });
      expect(await lz(seller)).toEqual({ available: 9_000_000n, frozen: 0n });
      expect(await lz(buyer)).toEqual({ available: 11_000_000n, frozen: 0n });
      expect((await billsOf(t, seller)).at(-1)).toMatchObject({ type: 14, change: '0', frozen: '-1000000' });
      expect((await billsOf(t, buyer)).at(-1)).toMatchObject({ type: 14, change: '1000000', frozen: '0' });
      await consistent();
    });

    it('appeals from either side with a reason; the deadline refuses a late payment and the expiry cancels', async () => {
      const a = await open();
      const b = await open();
      const c = await open();
      await expect(appeal(t.app.ctx, { matchId: a.id, memberId: seller, reason: '' })).rejects.toThrow(
        '申诉原因不能为空',
      );
      const stranger = await addMember(t);
      await expect(appeal(t.app.ctx, { matchId: a.id, memberId: stranger, reason: 'x' })).rejects.toThrow(
        '只有买卖双方可以申诉',
      );
      await appeal(t.app.ctx, { matchId: a.id, memberId: seller, reason: '买家未付款却上传凭证' });
      await markPaid(t.app.ctx, { matchId: b.id, buyerId: buyer, proofUrl: PROOF });
      await appeal(t.app.ctx, { matchId: b.id, memberId: buyer, reason: '卖家不确认收款' });
      expect(await row(a.id)).toMatchObject({ status: 5, appeal_by: 1, appeal_reason: '买家未付款却上传凭证' });
      expect(await row(b.id)).toMatchObject({ status: 5, appeal_by: 2 });
      await expect(appeal(t.app.ctx, { matchId: a.id, memberId: buyer, reason: '再申诉' })).rejects.toThrow(
        '该撮合已处理',
      );

      t.clock.advance(30 * MIN);
      await expect(markPaid(t.app.ctx, { matchId: c.id, buyerId: buyer, proofUrl: PROOF })).rejects.toThrow(
        '该撮合已超时',
      );
      expect(await expireMatches(t.app.ctx, t.clock.now() - 1)).toEqual({ cancelled: 0 });
      expect(await expireMatches(t.app.ctx, t.clock.now())).toEqual({ cancelled: 1 });
      expect(await expireMatches(t.app.ctx, t.clock.now())).toEqual({ cancelled: 0 });
      expect(await row(c.id)).toMatchObject({ status: 4, finished_at: t.clock.now() });
      expect((await billsOf(t, seller)).at(-1)).toMatchObject({
        type: 15,
        change: '1000000',
        frozen: '-1000000',
        ref_id: c.id,
      });
      expect(await lz(seller)).toEqual({ available: 8_000_000n, frozen: 2_000_000n });
      await consistent();
    });

    it('markPaid racing expireMatches: one winner, the LZ moved once', async () => {
      for (let i = 0; i < 6; i++) {
        const m = await open();
        const deadline = t.clock.now() + 30 * MIN;
        const [paid, expired] = await Promise.allSettled([
          markPaid(t.app.ctx, { matchId: m.id, buyerId: buyer, proofUrl: PROOF }),
          expireMatches(t.app.ctx, deadline),
        ]);
        const cancelled = expired.status === 'fulfilled' ? expired.value.cancelled : -1;
        expect(paid.status === 'fulfilled' ? 1 : 0).toBe(1 - cancelled);
        expect((await row(m.id)).status).toBe(cancelled ? 4 : 2);
        if (paid.status === 'rejected') expect(String(paid.reason)).toContain('该撮合已处理');
      }
      await consistent();
    });
  });

  describe('match/opt', () => {
    it('completes an appealed match and cancels an unpaid one with a remark, each with an op-log row', async () => {
      const a = await open();
      await appeal(t.app.ctx, { matchId: a.id, memberId: buyer, reason: '已付款' });
      const b = await open();
      const before = await opLogCount(t);
      expect(await opt({ id: a.id, action: 'complete' })).toMatchObject({ code: 200, data: { id: a.id, status: 3 } });
      expect(await opt({ id: b.id, action: 'cancel' })).toMatchObject({ code: 400, msg: '备注不能为空' });
      expect(await opt({ id: b.id, action: 'cancel', remark: '  ' })).toMatchObject({ code: 400, msg: '备注不能为空' });
      expect(await opt({ id: b.id, action: 'cancel', remark: '买家放弃' })).toMatchObject({ data: { status: 4 } });
      expect(await row(a.id)).toMatchObject({ status: 3, arbiter_name: 'admin', finished_at: t.clock.now() });
      expect(await row(b.id)).toMatchObject({ status: 4, remark: '买家放弃', arbiter_name: 'admin' });
      expect(await lz(seller)).toEqual({ available: 9_000_000n, frozen: 0n });
      expect(await lz(buyer)).toEqual({ available: 11_000_000n, frozen: 0n });
      const logs = (await opLogs(t)).slice(before);
      expect(logs.map((l) => [l.permission_code, l.target])).toEqual([
        ['match:opt', `match#${a.id}`],
        ['match:opt', `match#${b.id}`],
      ]);
      expect(logs[1].summary).toContain('买家放弃');
      for (const action of ['complete', 'cancel']) {
        expect(await opt({ id: a.id, action, remark: 'r' })).toMatchObject({ code: 409, msg: '该撮合已处理' });
      }
      const unpaid = await open();
      expect(await opt({ id: unpaid.id, action: 'complete' })).toMatchObject({ code: 409 });
      expect(await opt({ id: 99999, action: 'complete' })).toMatchObject({ code: 404, msg: '撮合记录不存在' });
      expect(await opt({ id: a.id, action: 'approve' })).toMatchObject({ code: 400, msg: '操作取值无效' });
      expect(await opt({ action: 'complete' })).toMatchObject({ code: 400, msg: '撮合ID不能为空' });
      expect(await opt({ id: a.id, action: 'cancel', remark: 'x'.repeat(201) })).toMatchObject({
        code: 400,
        msg: '备注长度不能超过200个字符',
      });
      const viewer = await actingAs(t, 'viewer1', ['match:view']);
      expect(await opt({ id: unpaid.id, action: 'cancel', remark: 'x' }, viewer.token)).toMatchObject({ code: 403 });
      expect((await row(unpaid.id)).status).toBe(1);
      expect(await opLogCount(t)).toBe(before + 2);
      await consistent();
    });

    it('50 concurrent complete/cancel calls on one appealed match: one success, one move of the LZ', async () => {
      const m = await open();
      await markPaid(t.app.ctx, { matchId: m.id, buyerId: buyer, proofUrl: PROOF });
      await appeal(t.app.ctx, { matchId: m.id, memberId: seller, reason: '未收到款' });
      const bills = (await billsOf(t, seller)).length + (await billsOf(t, buyer)).length;
      const other = await actingAs(t, 'arbiter2', ['match:view', 'match:opt']);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          opt({ id: m.id, action: i % 2 ? 'complete' : 'cancel', remark: '并发' }, i % 3 ? token : other.token),
        ),
      );
      expect(results.filter((r) => r.code === 200)).toHaveLength(1);
      expect(results.filter((r) => r.code === 409)).toHaveLength(49);
      const won = results.find((r) => r.code === 200)!.data.status;
      const after = (await billsOf(t, seller)).length + (await billsOf(t, buyer)).length;
      expect(after - bills).toBe(won === 3 ? 2 : 1);
      await consistent();
    });
  });

  describe('match/list', () => {
    it('lists with both members, the snapshot, filters by seller, buyer, status and range, with exact sums', async () => {
      const third = await trader();
      const a = await open();
      await markPaid(t.app.ctx, { matchId: a.id, buyerId: buyer, proofUrl: PROOF });
      await appeal(t.app.ctx, { matchId: a.id, memberId: buyer, reason: '卖家不确认' });
      t.clock.advance(MIN);
      const b = await open({ buyerId: third, quantity: 25_000n, unitPrice: 1_000_000n });
      const all = await list();
      expect(all.data).toMatchObject({ total: 2, sum: { quantity: '102.5', total: '52.5', count: 2 } });
      expect(all.data.list.map((r: any) => r.id)).toEqual([b.id, a.id]);
      expect(all.data.list[1]).toMatchObject({
        id: a.id,
        sellerId: seller,
        sellerUid: await uidOf(seller),
        buyerId: buyer,
        buyerUid: await uidOf(buyer),
        quantity: '100',
        unitPrice: '0.5',
        total: '50',
        payment: { type: 2, name: '王芳', qrUrl: '/uploads/demo/qr.png' },
        proofUrl: PROOF,
        status: 5,
        appealReason: '卖家不确认',
        appealBy: 2,
        arbiterName: null,
      });
      expect((await list({ buyer: await uidOf(third) })).data.list.map((r: any) => r.id)).toEqual([b.id]);
      expect((await list({ seller: await uidOf(seller) })).data.total).toBe(2);
      expect((await list({ seller: await uidOf(buyer) })).data.total).toBe(0);
      expect((await list({ status: 5 })).data).toMatchObject({ total: 1, sum: { quantity: '100', total: '50' } });
      expect((await list({ start: String(t.clock.now()) })).data.list.map((r: any) => r.id)).toEqual([b.id]);
      expect(await list({ status: 6 })).toMatchObject({ code: 400, msg: '状态取值无效' });
      expect(await list({ seller: 'x'.repeat(21) })).toMatchObject({ code: 400, msg: '卖家长度不能超过20个字符' });
      const nobody = await actingAs(t, 'nobody2', ['seed:view']);
      expect(await list({}, nobody.token)).toMatchObject({ code: 403 });
    });

    it('keeps match_stat exact and pages by cursor exactly as by page number', async () => {
      const third = await trader();
      for (let i = 0; i < 26; i++) {
        const m = await open({ buyerId: i % 3 ? buyer : third, quantity: BigInt(10_000 + i * 37) });
        if (i % 4 === 1) await markPaid(t.app.ctx, { matchId: m.id, buyerId: i % 3 ? buyer : third, proofUrl: PROOF });
        if (i % 4 === 2) await opt({ id: m.id, action: 'cancel', remark: '测试' });
        if (i % 4 !== 2 && i % 5 === 3) await appeal(t.app.ctx, { matchId: m.id, memberId: seller, reason: '测试' });
      }
      await consistent();
      const thirdUid = await uidOf(third);
      for (const q of [
        {},
        { order: 'asc' },
        { status: 1 },
        { buyer: thirdUid },
        { seller: await uidOf(seller), status: 4 },
      ] as Array<Record<string, unknown>>) {
        await expectCursorPagingMatchesOffset(list, q, 4);
        if (q.buyer || q.seller) continue;
        const rows = await t.db.db
          .selectFrom('match_trade')
          .select((eb) => [eb.fn.countAll<number>().as('n')])
          .$if(q.status !== undefined, (qb) => qb.where('status', '=', q.status as number))
          .executeTakeFirstOrThrow();
        expect((await list(q)).data.total).toBe(Number(rows.n));
      }
    });
  });
});
