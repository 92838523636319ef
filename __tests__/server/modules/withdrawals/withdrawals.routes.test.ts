import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import type { Actor } from '../../../../server/context';
import { opLogInsertFrom } from '../../../../server/modules/oplog/oplog.repository';
import { approveInOneStatement, factsOf } from '../../../../server/modules/withdrawals/withdrawals.approve';
import { withdrawalStatViolations } from '../../../../server/modules/withdrawals/withdrawals.repository';
import { requestWithdrawal } from '../../../../server/modules/withdrawals/requestWithdrawal.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, billsOf, credit, erc20Address, trc20Address } from '../deposits/fixtures';
import { actingAs, opLogCount, opLogs } from '../system/fixtures';
import { WITHDRAW_SETTING } from './fixtures';

/** A TRC20 transaction hash (the records here are on TRC20): 64 hex digits. */
const TX = 'ab'.repeat(32);
const TX_B = 'b'.repeat(64);
const LOG = { code: 'withdraw:audit', target: 'withdrawal#test', summary: '审核通过' };

describe(`withdrawals (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let memberId: number;
  const ask = (over: Partial<Parameters<typeof requestWithdrawal>[1]> = {}) =>
    requestWithdrawal(t.app.ctx, {
      memberId,
      type: 1,
      amount: '100',
      chain: 'TRC20',
      address: trc20Address(),
      ...over,
    });
  const setting = (body: Record<string, unknown>, tk = token) =>
    t.call('POST', '/v1/admin/withdraw/setting', { token: tk, body: { type: 1, ...WITHDRAW_SETTING, ...body } });
  const opt = (body: Record<string, unknown>, tk = token) =>
    t.call('POST', '/v1/admin/withdraw/opt', { token: tk, body });
  const statusOf = async (id: number) =>
    (await t.db.db.selectFrom('withdrawal').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '10000');
    await credit(t, memberId, 'LZ', '100000');
    await setting({});
  });
  afterEach(() => t.close());

  describe('requestWithdrawal (member side)', () => {
    it('freezes the amount with bill 提现冻结 and computes fee = max(amount × rate rounded up, fee minimum)', async () => {
      const r = await ask({ amount: '150' });
      expect(r).toMatchObject({ status: 0, fee: '1.5', actual: '148.5' });
      expect((await balancesOf(t.db.db, memberId)).USDT).toEqual({ available: 9_850_000_000n, frozen: 150_000_000n });
      expect((await billsOf(t, memberId)).at(-1)).toEqual({
        type: 2,
        asset: 'USDT',
        change: '-150000000',
        frozen: '150000000',
        ref_kind: 'withdrawal',
        ref_id: r.id,
      });
      expect((await ask({ amount: '50' })).fee).toBe('1');
      await setting({ feeRate: '0.003', feeMin: '0' });
      // 10.000001 × 0.003 = 0.030000003 → rounded up to the minor unit
      expect(await ask({ amount: '10.000001' })).toMatchObject({ fee: '0.030001', actual: '9.97' });
      await setting({ feeRate: '0', feeMin: '0' });
      expect(await ask({ amount: '10' })).toMatchObject({ fee: '0', actual: '10' });
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('approves at once up to the ceiling, and an extract freezes LZ', async () => {
      await setting({ autoApproveMax: '100' });
      const small = await ask({ amount: '100' });
      const big = await ask({ amount: '100.000001' });
      expect([small.status, big.status]).toEqual([1, 0]);
      const row = await t.db.db
        .selectFrom('withdrawal')
        .selectAll()
        .where('id', '=', small.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ remark: '自动审核', audited_at: t.clock.now(), auditor_id: null });
      const lz = await requestWithdrawal(t.app.ctx, {
        memberId,
        type: 2,
        amount: '1000',
        chain: 'ERC20',
        address: erc20Address(),
      });
      expect(lz).toMatchObject({ status: 0, fee: '5', actual: '995' });
      expect((await balancesOf(t.db.db, memberId)).LZ).toEqual({ available: 990_000_000n, frozen: 10_000_000n });
    });

    it('refuses when closed, outside open hours, below min, above max, over the daily count or unaffordable', async () => {
      await setting({ open: false });
      await expect(ask()).rejects.toThrow('提现通道已关闭');
      // the manual clock reads 10:00 in Shanghai
      await setting({ openHours: '11:00-18:00' });
      await expect(ask()).rejects.toThrow('提现开放时间为11:00-18:00');
      await setting({ openHours: '22:00-10:01' });
      await expect(ask({ amount: '9.999999' })).rejects.toThrow('提现金额不能低于10');
      await expect(ask({ amount: '1000.000001' })).rejects.toThrow('提现金额不能高于1000');
      await expect(ask({ amount: '1.0000001' })).rejects.toThrow('提现金额小数位数过多');
      await expect(ask({ address: erc20Address() })).rejects.toThrow('地址格式不正确');
      await setting({ feeMin: '10' });
      await expect(ask({ amount: '10' })).rejects.toThrow('提现金额不足以支付手续费');
      await setting({ maxTimesPerDay: 2 });
      await ask();
      await ask();
      await expect(ask()).rejects.toThrow('每日最多提现2次');
      t.clock.advance(86_400_000);
      await ask();
      const poor = await addMember(t);
      await expect(ask({ memberId: poor })).rejects.toThrow('可用余额不足');
      const n = await t.db.db.selectFrom('withdrawal').select('id').execute();
      expect(n).toHaveLength(3);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('refuses frozen and withdraw-banned members', async () => {
      for (const [status, msg] of [
        [2, '会员已冻结'],
        [3, '该会员已被禁止提现'],
      ] as const) {
        const m = await addMember(t, { status });
        await credit(t, m, 'USDT', '100');
        await expect(ask({ memberId: m })).rejects.toThrow(msg);
        expect((await balancesOf(t.db.db, m)).USDT).toEqual({ available: 100_000_000n, frozen: 0n });
      }
    });
  });

  describe('withdraw/opt', () => {
    it('approve, then paid reduces frozen with bill 提现成功, each with one op-log row', async () => {
      const { id } = await ask({ amount: '200' });
      const before = await opLogCount(t);
      expect(await opt({ id, action: 'approve' })).toMatchObject({ code: 200, data: { id, status: 1 } });
      expect(await opt({ id, action: 'paid' })).toMatchObject({ code: 400, msg: '交易哈希不能为空' });
      expect(await opt({ id, action: 'paid', txHash: TX })).toMatchObject({ code: 200, data: { id, status: 2 } });
      const row = await t.db.db.selectFrom('withdrawal').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 2, tx_hash: TX, auditor_name: 'admin', paid_at: t.clock.now() });
      expect((await balancesOf(t.db.db, memberId)).USDT).toEqual({ available: 9_800_000_000n, frozen: 0n });
      expect((await billsOf(t, memberId)).at(-1)).toMatchObject({ type: 3, change: '0', frozen: '-200000000' });
      const logs = (await opLogs(t)).slice(before);
      expect(logs.map((l) => l.permission_code)).toEqual(['withdraw:audit', 'withdraw:pay']);
      for (const action of ['approve', 'paid', 'reject']) {
        expect(await opt({ id, action, txHash: TX, remark: 'r' })).toMatchObject({ code: 409, msg: '该提现已处理' });
      }
      expect(await opLogCount(t)).toBe(before + 2);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('reject from pending or approved returns the frozen amount with bill 提现驳回', async () => {
      const a = await ask({ amount: '100' });
      const b = await ask({ amount: '300' });
      await opt({ id: b.id, action: 'approve' });
      expect(await opt({ id: a.id, action: 'reject' })).toMatchObject({ code: 400, msg: '备注不能为空' });
      expect(await opt({ id: a.id, action: 'reject', remark: '地址有误' })).toMatchObject({ data: { status: 3 } });
      expect(await opt({ id: b.id, action: 'reject', remark: '风控' })).toMatchObject({ data: { status: 3 } });
      expect((await balancesOf(t.db.db, memberId)).USDT).toEqual({ available: 10_000_000_000n, frozen: 0n });
      expect((await billsOf(t, memberId)).slice(-2)).toMatchObject([
        { type: 4, change: '100000000', frozen: '-100000000', ref_id: a.id },
        { type: 4, change: '300000000', frozen: '-300000000', ref_id: b.id },
      ]);
      expect(await opt({ id: a.id, action: 'paid', txHash: TX })).toMatchObject({ code: 409 });
      const row = await t.db.db.selectFrom('withdrawal').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ remark: '地址有误', auditor_name: 'admin' });
    });

    it('pays only approved records, answers 404 for a missing one and 400 for bad input', async () => {
      const { id } = await ask();
      expect(await opt({ id, action: 'paid', txHash: TX })).toMatchObject({ code: 409, msg: '该提现已处理' });
      expect(await statusOf(id)).toBe(0);
      expect(await opt({ id: 99999, action: 'approve' })).toMatchObject({ code: 404, msg: '提现记录不存在' });
      expect(await opt({ id, action: 'cancel' })).toMatchObject({ code: 400, msg: '操作取值无效' });
      expect(await opt({ action: 'approve' })).toMatchObject({ code: 400, msg: '提现ID不能为空' });
    });

    it('checks the precise permission of the record type and action', async () => {
      const w = await ask();
      const e = await requestWithdrawal(t.app.ctx, {
        memberId,
        type: 2,
        amount: '500',
        chain: 'TRC20',
        address: trc20Address(),
      });
      const auditor = await actingAs(t, 'auditor1', ['withdraw:view', 'withdraw:audit']);
      const extractPayer = await actingAs(t, 'payer2', ['extract:view', 'extract:audit', 'extract:pay']);
      const nobody = await actingAs(t, 'nobody', ['withdraw:view']);
      expect(await opt({ id: w.id, action: 'approve' }, nobody.token)).toMatchObject({ code: 403 });
      expect(await opt({ id: e.id, action: 'approve' }, auditor.token)).toMatchObject({ code: 403, msg: '无权限' });
      expect(await opt({ id: w.id, action: 'approve' }, extractPayer.token)).toMatchObject({ code: 403 });
      expect(await opt({ id: w.id, action: 'approve' }, auditor.token)).toMatchObject({ code: 200 });
      expect(await opt({ id: w.id, action: 'paid', txHash: TX }, auditor.token)).toMatchObject({ code: 403 });
      expect(await statusOf(w.id)).toBe(1);
      expect(await opt({ id: e.id, action: 'approve' }, extractPayer.token)).toMatchObject({ code: 200 });
      expect(await opt({ id: e.id, action: 'paid', txHash: TX_B }, extractPayer.token)).toMatchObject({ code: 200 });
      expect((await opLogs(t)).at(-1)).toMatchObject({ permission_code: 'extract:pay', username: 'payer2' });
    });

    it('50 concurrent approve/reject/paid calls on one approved withdrawal: one success and one bill', async () => {
      const { id } = await ask({ amount: '100' });
      await opt({ id, action: 'approve' });
      const bills = (await billsOf(t, memberId)).length;
      const actions = ['approve', 'reject', 'paid'];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => opt({ id, action: actions[i % 3], remark: '并发', txHash: TX })),
      );
      expect(results.filter((r) => r.code === 200)).toHaveLength(1);
      expect(results.filter((r) => r.code === 409)).toHaveLength(49);
      expect((await billsOf(t, memberId)).length).toBe(bills + 1);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });
  });

  describe('withdraw/opt/batch', () => {
    const batch = (body: Record<string, unknown>, tk = token) =>
      t.call('POST', '/v1/admin/withdraw/opt/batch', { token: tk, body });

    it('answers per id: handled records, missing ids and records of a type the caller may not touch fail alone', async () => {
      const a = await ask();
      const b = await ask();
      const c = await ask();
      await opt({ id: c.id, action: 'reject', remark: 'x' });
      const e = await requestWithdrawal(t.app.ctx, {
        memberId,
        type: 2,
        amount: '500',
        chain: 'TRC20',
        address: trc20Address(),
      });
      const auditor = await actingAs(t, 'auditor2', ['withdraw:view', 'withdraw:audit']);
      const r = await batch({ ids: [a.id, b.id, c.id, 99999, e.id], action: 'approve' }, auditor.token);
      expect(r.data).toEqual({
        succeeded: [a.id, b.id],
        failed: [
          { id: c.id, msg: '该提现已处理' },
          { id: 99999, msg: '提现记录不存在' },
          { id: e.id, msg: '无权限' },
        ],
      });
      const paid = await batch({ ids: [a.id, b.id], action: 'paid' });
      expect(paid.data).toEqual({ succeeded: [a.id, b.id], failed: [] });
      expect(await statusOf(a.id)).toBe(2);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('refuses a reject without remark, an empty or oversized id list, and callers without any action code', async () => {
      const a = await ask();
      expect(await batch({ ids: [a.id], action: 'reject' })).toMatchObject({ code: 400, msg: '备注不能为空' });
      expect(await batch({ ids: [], action: 'approve' })).toMatchObject({ code: 400, msg: '提现ID不能为空' });
      const many = Array.from({ length: 1001 }, (_, i) => i + 1);
      expect(await batch({ ids: many, action: 'approve' })).toMatchObject({ code: 400, msg: '提现ID最多1000项' });
      const viewer = await actingAs(t, 'viewer9', ['withdraw:view']);
      expect(await batch({ ids: [a.id], action: 'approve' }, viewer.token)).toMatchObject({ code: 403 });
      expect(await statusOf(a.id)).toBe(0);
    });

    it('approves 1,000 withdrawals in one call, each exactly once', async () => {
      await setting({ feeMin: '0', feeRate: '0' });
      const ids: number[] = [];
      for (let i = 0; i < 1000; i++) ids.push((await ask({ amount: '10' })).id);
      const before = await opLogCount(t);
      const started = performance.now();
      const r = await batch({ ids, action: 'approve' });
      const ms = performance.now() - started;
      console.log(`withdraw/opt/batch approve 1,000 on ${dbKind}: ${ms.toFixed(0)} ms`);
      expect(r.data.succeeded).toHaveLength(1000);
      expect(r.data.failed).toEqual([]);
      expect(await opLogCount(t)).toBe(before + 1000);
      const again = await batch({ ids: ids.slice(0, 3), action: 'approve' });
      expect(again.data.failed).toHaveLength(3);
      expect(await withdrawalStatViolations(t.db.db)).toEqual([]);
    }, 120_000);
  });

  // On PostgreSQL an approval is one statement (approveInOneStatement), the general path its fallback;
  // on SQLite it is the general path. Both must leave the same rows.
  describe('approve: the one-statement path and the general one', () => {
    const batch = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/withdraw/opt/batch', { token, body });
    const stat = (status: number) =>
      t.db.db
        .selectFrom('withdrawal_stat')
        .select(['n', 'amount_sum', 'fee_sum'])
        .where('type', '=', 1)
        .where('status', '=', status)
        .executeTakeFirst();

    it('stamps the auditor and remark, writes the op-log row of what moved and keeps withdrawal_stat exact', async () => {
      const { id } = await ask({ amount: '123.45' });
      const row0 = await t.db.db.selectFrom('withdrawal').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const before = await opLogCount(t);
      expect(await opt({ id, action: 'approve', remark: '核对无误' })).toMatchObject({
        code: 200,
        data: { status: 1 },
      });
      const row = await t.db.db.selectFrom('withdrawal').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        status: 1,
        remark: '核对无误',
        auditor_name: 'admin',
        audited_at: t.clock.now(),
        amount: row0.amount,
        fee: row0.fee,
      });
      const logs = (await opLogs(t)).slice(before);
      expect(logs).toMatchObject([
        {
          permission_code: 'withdraw:audit',
          target: `withdrawal#${id}`,
          summary: `审核通过提现 #${id}（123.45 USDT）`,
          username: 'admin',
          created_at: t.clock.now(),
        },
      ]);
      const { id: other } = await ask({ amount: '10' });
      expect(await batch({ ids: [other], action: 'approve' })).toMatchObject({ data: { succeeded: [other] } });
      const unchanged = await t.db.db
        .selectFrom('withdrawal')
        .select('remark')
        .where('id', '=', other)
        .executeTakeFirst();
      expect(unchanged?.remark).toBe('');
      expect(await withdrawalStatViolations(t.db.db)).toEqual([]);
    });

    it('a counter row out of step refuses the approval whole: no move, no op-log row, no counter change', async () => {
      const { id } = await ask();
      await t.db.db.deleteFrom('withdrawal_stat').where('type', '=', 1).where('status', '=', 0).execute();
      const approved = await stat(1);
      const before = await opLogCount(t);
      expect(await opt({ id, action: 'approve' })).toMatchObject({ code: 500, data: null });
      expect(await statusOf(id)).toBe(0);
      expect(await opLogCount(t)).toBe(before);
      expect(await stat(1)).toEqual(approved);
    });

    (dbKind === 'postgres' ? it : it.skip)(
      'PostgreSQL: a record not as read moves nothing in one statement (the general path takes it)',
      async () => {
        const { id } = await ask({ amount: '50' });
        const [read] = (await factsOf(t.db.db, [id])).values();
        const who = { managerId: 1, username: 'admin', now: t.clock.now() };
        const log = (m: string) =>
          opLogInsertFrom(m, { managerId: 1, username: 'admin', ip: '127.0.0.1' } as Actor, LOG, who.now);
        const before = await opLogCount(t);
        for (const wrong of [{ amount: read.amount + 1n }, { fee: read.fee + 1n }, { type: 2 }])
          expect(await approveInOneStatement(t.db.db, id, { ...read, ...wrong }, who, log)).toBe(false);
        expect(await statusOf(id)).toBe(0);
        expect(await opLogCount(t)).toBe(before);
        expect(await approveInOneStatement(t.db.db, id, read, who, log)).toBe(true);
        expect(await approveInOneStatement(t.db.db, id, read, who, log)).toBe(false);
        expect(await statusOf(id)).toBe(1);
        expect(await opLogCount(t)).toBe(before + 1);
        expect(await withdrawalStatViolations(t.db.db)).toEqual([]);
      },
    );

    it('a batch approval racing single approvals and rejects: each record moved once per action, no deadlock', async () => {
      await setting({ feeMin: '0', feeRate: '0' });
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) ids.push((await ask({ amount: '10' })).id);
      const [raced, rejectedToo] = [ids.slice(0, 15), ids.slice(15)];
      const before = await opLogCount(t);
      const [approved, ...singles] = await Promise.all([
        batch({ ids, action: 'approve' }),
        ...raced.map((id) => opt({ id, action: 'approve' })),
        ...rejectedToo.map((id) => opt({ id, action: 'reject', remark: '并发驳回' })),
      ]);
      expect(approved.code).toBe(200);
      const single = singles.slice(0, raced.length);
      expect(single.every((r) => r.code === 200 || r.code === 409)).toBe(true);
      // Each raced record approved exactly once: by the batch or by its single call.
      const bySingle = raced.filter((_, i) => single[i].code === 200);
      const byBatch = raced.filter((id) => approved.data.succeeded.includes(id));
      expect([...bySingle, ...byBatch].sort()).toEqual([...raced].sort());
      for (const id of raced) expect(await statusOf(id)).toBe(1);
      // A reject succeeds from 待审核 and from 待打款: each ends 已驳回, approved first or not.
      expect(singles.slice(raced.length).map((r) => r.code)).toEqual(rejectedToo.map(() => 200));
      for (const id of rejectedToo) expect(await statusOf(id)).toBe(3);
      expect(await opLogCount(t)).toBe(before + approved.data.succeeded.length + bySingle.length + rejectedToo.length);
      expect(await withdrawalStatViolations(t.db.db)).toEqual([]);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });
  });

  describe('withdraw/list', () => {
    const list = (query: Record<string, unknown>, tk = token) =>
      t.call('GET', '/v1/admin/withdraw/list', { token: tk, query: { type: 1, ...query } });
    it('lists one type with filters, paging and sums of amount and fee', async () => {
      const addr = trc20Address();
      const a = await ask({ amount: '100', address: addr });
      const b = await ask({ amount: '200' });
      await opt({ id: b.id, action: 'approve' });
      await opt({ id: b.id, action: 'paid', txHash: TX_B });
      await requestWithdrawal(t.app.ctx, { memberId, type: 2, amount: '500', chain: 'TRC20', address: trc20Address() });
      const all = await list({});
      expect(all.data).toMatchObject({ total: 2, page: 1, size: 20, sum: { amount: '300', fee: '3', count: 2 } });
      expect(all.data.list[0]).toMatchObject({
        id: b.id,
        type: 1,
        asset: 'USDT',
        amount: '200',
        fee: '2',
        actual: '198',
        status: 2,
        txHash: TX_B,
        auditorName: 'admin',
      });
      expect((await list({ address: addr })).data.list.map((r: any) => r.id)).toEqual([a.id]);
      expect((await list({ txHash: TX_B })).data.list.map((r: any) => r.id)).toEqual([b.id]);
      expect((await list({ status: 0 })).data.list.map((r: any) => r.id)).toEqual([a.id]);
      const m = await t.db.db.selectFrom('member').select('uid').where('id', '=', memberId).executeTakeFirstOrThrow();
      expect((await list({ keyword: m.uid })).data.total).toBe(2);
      expect((await list({ keyword: '00000000' })).data.total).toBe(0);
      expect((await list({ sort: 'amount', order: 'asc', size: 1 })).data.list[0].id).toBe(a.id);
      expect((await list({ start: String(t.clock.now() + 1) })).data.sum).toEqual({ amount: '0', fee: '0', count: 0 });
      // 末页 (before=0_0) and a date range with both ends.
      expect((await list({ before: '0_0', size: 1 })).data.list.map((r: any) => r.id)).toEqual([a.id]);
      const range = { start: String(t.clock.now() - 86_400_000), end: String(t.clock.now()) };
      expect((await list(range)).data.sum).toEqual({ amount: '300', fee: '3', count: 2 });
      const extracts = await list({ type: 2 });
      expect(extracts.data.sum).toEqual({ amount: '500', fee: '2.5', count: 1 });
      expect(extracts.data.list[0]).toMatchObject({ asset: 'LZ', amount: '500' });

      expect(await t.call('GET', '/v1/admin/withdraw/list', { token })).toMatchObject({
        code: 400,
        msg: '类型不能为空',
      });
      expect(await list({ type: 3 })).toMatchObject({ code: 400, msg: '类型取值无效' });
      expect(await list({ status: 7 })).toMatchObject({ code: 400, msg: '状态取值无效' });
      const extractViewer = await actingAs(t, 'ev', ['extract:view']);
      expect(await list({}, extractViewer.token)).toMatchObject({ code: 403 });
      expect((await list({ type: 2 }, extractViewer.token)).data.total).toBe(1);
    });

    it('keeps withdrawal_stat exact and pages by cursor exactly as by page number, under every sort', async () => {
      const other = await addMember(t);
      await credit(t, other, 'USDT', '10000');
      const otherUid = (
        await t.db.db.selectFrom('member').select('uid').where('id', '=', other).executeTakeFirstOrThrow()
      ).uid;
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) {
        t.clock.advance(i % 4 === 0 ? 0 : 60_000); // some share a creation time
        const amount = String(10 + ((i * 37) % 17)); // repeated amounts: ties broken by id
        ids.push((await ask({ amount, ...(i % 3 === 0 ? { memberId: other } : {}) })).id);
      }
      for (const [i, id] of ids.entries()) {
        t.clock.advance(1000);
        if (i % 5 === 0) await opt({ id, action: 'reject', remark: '测试' });
        else if (i % 2 === 0) {
          await opt({ id, action: 'approve' });
          if (i % 4 === 0) await opt({ id, action: 'paid', txHash: String(i).padStart(64, '0') });
        }
      }
      expect(await withdrawalStatViolations(t.db.db)).toEqual([]);
      expect(await billStatViolations(t.db.db)).toEqual([]);
      const size = 6;
      for (const q of [
        {},
        { order: 'asc' },
        { sort: 'createdAt' },
        { sort: 'amount', order: 'asc' },
        { sort: 'amount' },
        { sort: 'auditedAt' },
        { sort: 'paidAt', order: 'asc' },
        { status: 1 },
        { keyword: otherUid, sort: 'amount' },
      ] as Array<Record<string, unknown>>) {
        await expectCursorPagingMatchesOffset(list, q, size);
        const first = await list({ ...q, size });
        // The total and sums of a type and status come from withdrawal_stat: equal to summing the rows.
        const rows = await t.db.db
          .selectFrom('withdrawal')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<string>('amount').as('a')])
          .where('type', '=', 1)
          .$if(q.status !== undefined, (qb) => qb.where('status', '=', q.status as number))
          .executeTakeFirstOrThrow();
        if (!q.keyword) expect(first.data.total).toBe(Number(rows.n));
      }
    });
  });

  describe('withdraw/setting and withdraw/account', () => {
    it('reads defaults per type with the payout wallet, saves both, and reads them back', async () => {
      const get = (type: number) => t.call('GET', '/v1/admin/withdraw/setting', { token, query: { type } });
      expect((await get(2)).data).toMatchObject({
        type: 2,
        asset: 'LZ',
        open: true,
        min: '100',
        feeRate: '0.005',
        updatedAt: null,
        account: { chain: '', address: '', updatedAt: null },
      });
      const saved = await setting({
        min: '20.50',
        max: '0',
        feeRate: '0.0150',
        maxTimesPerDay: 5,
        openHours: '09:00-18:00',
      });
      expect(saved.data).toMatchObject({
        type: 1,
        min: '20.5',
        max: '0',
        feeRate: '0.015',
        maxTimesPerDay: 5,
        openHours: '09:00-18:00',
        updatedBy: 'admin',
      });
      const address = trc20Address();
      const acc = await t.call('POST', '/v1/admin/withdraw/account', {
        token,
        body: { type: 1, chain: 'TRC20', address, remark: '出款钱包' },
      });
      expect(acc.data.account).toEqual({
        chain: 'TRC20',
        address,
        remark: '出款钱包',
        updatedAt: t.clock.now(),
        updatedBy: 'admin',
      });
      expect((await get(1)).data).toEqual(acc.data);
      expect((await get(2)).data.account.address).toBe('');
      expect((await opLogs(t)).at(-1)).toMatchObject({ permission_code: 'withdrawSetting:update' });
    });

    it('refuses bad values naming the field, and callers without the setting codes', async () => {
      const before = await opLogCount(t);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ feeRate: '1' }, '手续费率必须小于1'],
        [{ feeRate: '-0.1' }, '手续费率不能为负数'],
        [{ feeRate: 'abc' }, '手续费率格式不正确'],
        [{ feeRate: '0.0000001' }, '手续费率小数位数过多'],
        [{ min: '0' }, '单笔最低金额必须大于0'],
        [{ max: '5' }, '单笔最高金额不能低于单笔最低金额'],
        [{ feeMin: '1.0000001' }, '最低手续费小数位数过多'],
        [{ autoApproveMax: 'x' }, '自动审核额度格式不正确'],
        [{ openHours: '25:00-18:00' }, '开放时间格式不正确'],
        [{ openHours: '09:00-09:00' }, '开放时间格式不正确'],
        [{ maxTimesPerDay: -1 }, '每日次数不能小于0'],
        [{ type: 3 }, '类型取值无效'],
        [{ open: 'yes' }, '开关格式不正确'],
      ];
      for (const [body, msg] of cases) expect(await setting(body)).toMatchObject({ code: 400, msg });
      const acc = (body: Record<string, unknown>, tk = token) =>
        t.call('POST', '/v1/admin/withdraw/account', { token: tk, body });
      expect(await acc({ type: 1, chain: 'ERC20', address: trc20Address() })).toMatchObject({
        code: 400,
        msg: '地址格式不正确（ERC20地址以0x开头，后跟40位十六进制）',
      });
      expect(await acc({ type: 1, chain: 'ERC20' })).toMatchObject({ code: 400, msg: '地址不能为空' });
      expect(await t.call('GET', '/v1/admin/withdraw/setting', { token })).toMatchObject({
        code: 400,
        msg: '类型不能为空',
      });
      expect(await opLogCount(t)).toBe(before);
      const viewer = await actingAs(t, 'sv', ['withdrawSetting:view']);
      expect(await setting({}, viewer.token)).toMatchObject({ code: 403 });
      expect(await acc({ type: 1, chain: 'ERC20', address: erc20Address() }, viewer.token)).toMatchObject({
        code: 403,
      });
      expect(
        (await t.call('GET', '/v1/admin/withdraw/setting', { token: viewer.token, query: { type: 1 } })).code,
      ).toBe(200);
      const none = await actingAs(t, 'sn', ['withdraw:view']);
      expect(
        await t.call('GET', '/v1/admin/withdraw/setting', { token: none.token, query: { type: 1 } }),
      ).toMatchObject({ code: 403 });
    });
  });
});
