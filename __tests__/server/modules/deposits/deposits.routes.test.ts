import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { depositStatViolations } from '../../../../server/modules/deposits/deposits.repository';
import { submitDeposit } from '../../../../server/modules/deposits/deposits.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, opLogCount, opLogs } from '../system/fixtures';
import {
  addDepositAccount,
  addMember,
  billsOf,
  credit,
  erc20Address,
  erc20Tx,
  trc20Address,
  trc20Tx,
} from './fixtures';

describe(`deposits (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let memberId: number;
  let account: { id: number; address: string };
  const submit = (over: Partial<Parameters<typeof submitDeposit>[1]> = {}) =>
    submitDeposit(t.app.ctx, {
      memberId,
      chain: 'TRC20',
      fromAddress: trc20Address(),
      amount: '100.5',
      txHash: trc20Tx(),
      ...over,
    });

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    memberId = await addMember(t);
    account = await addDepositAccount(t, 'TRC20');
  });
  afterEach(() => t.close());

  describe('submitDeposit (member side)', () => {
    it('records a pending deposit to the first enabled receiving address of the chain', async () => {
      const { id } = await submit({ amount: '100.5', proofUrl: '/uploads/p.png' });
      const row = await t.db.db.selectFrom('deposit').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 0, to_address: account.address, proof_url: '/uploads/p.png' });
      expect(String(row.amount)).toBe('100500000');
      expect(await billsOf(t, memberId)).toEqual([]);
    });

    it('refuses when closed, on a closed chain, below the minimum, or with a bad address or hash', async () => {
      await t.call('POST', '/v1/admin/deposit/setting', {
        token,
        body: { open: true, min: '50', chains: ['TRC20'], tips: '' },
      });
      await expect(submit({ amount: '49.999999' })).rejects.toThrow('充值金额不能低于50');
      await expect(submit({ amount: '1.0000001' })).rejects.toThrow('充值金额小数位数过多');
      await expect(submit({ amount: 'abc' })).rejects.toThrow('充值金额格式不正确');
      await expect(submit({ chain: 'ERC20', fromAddress: erc20Address(), txHash: erc20Tx() })).rejects.toThrow(
        '该链暂未开放充值',
      );
      await expect(submit({ fromAddress: erc20Address() })).rejects.toThrow('付款地址格式不正确');
      await expect(submit({ txHash: 'abc' })).rejects.toThrow('交易哈希格式不正确');
      await expect(submit({ toAddress: trc20Address() })).rejects.toThrow('收款地址不存在或已停用');
      await t.call('POST', '/v1/admin/deposit/setting', {
        token,
        body: { open: false, min: '50', chains: [], tips: '' },
      });
      await expect(submit()).rejects.toThrow('充值通道已关闭');
      expect(await t.db.db.selectFrom('deposit').select('id').execute()).toEqual([]);
    });

    it('refuses a duplicate txHash, a chain without an enabled address and a frozen member', async () => {
      const txHash = trc20Tx();
      await submit({ txHash });
      await expect(submit({ txHash })).rejects.toThrow('该交易哈希已提交');
      // The same transaction spelled in upper case is the same transaction: never credited twice.
      await expect(submit({ txHash: ` ${txHash.toUpperCase()} ` })).rejects.toThrow('该交易哈希已提交');
      // The refused insert rolled back its count with it.
      expect(await depositStatViolations(t.db.db)).toEqual([]);
      const stat = await t.db.db.selectFrom('deposit_stat').select(['status', 'n']).execute();
      expect(stat.map((r) => [r.status, Number(r.n)])).toEqual([[0, 1]]);
      await expect(submit({ chain: 'ERC20', fromAddress: erc20Address(), txHash: erc20Tx() })).rejects.toThrow(
        '该链暂无收款地址',
      );
      const frozen = await addMember(t, { status: 2 });
      await expect(submit({ memberId: frozen })).rejects.toThrow('会员已冻结');
      await expect(submit({ memberId: 999999 })).rejects.toThrow('会员不存在');
    });
  });

  it('20 concurrent submissions of one hash: one deposit counted, the others 400 该交易哈希已提交', async () => {
    const txHash = trc20Tx();
    const rs = await Promise.allSettled(Array.from({ length: 20 }, () => submit({ txHash, amount: '15' })));
    expect(rs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of rs.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 400, message: '该交易哈希已提交' });
    expect(await depositStatViolations(t.db.db)).toEqual([]);
    const list = await t.call('GET', '/v1/admin/deposit/list', { token, query: {} });
    expect(list.data).toMatchObject({ total: 1, sum: { amount: '15', count: 1 } });
  });

  describe('deposit/opt', () => {
    it('confirm credits available once with bill 充值 and one op-log row', async () => {
      const { id } = await submit({ amount: '100.5' });
      const before = await opLogCount(t);
      const r = await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'confirm' } });
      expect(r).toMatchObject({ code: 200, data: { id, status: 1 } });
      expect((await balancesOf(t.db.db, memberId)).USDT).toEqual({ available: 100_500_000n, frozen: 0n });
      expect(await billsOf(t, memberId)).toEqual([
        { type: 1, asset: 'USDT', change: '100500000', frozen: '0', ref_kind: 'deposit', ref_id: id },
      ]);
      expect(await opLogCount(t)).toBe(before + 1);
      const log = (await opLogs(t)).at(-1)!;
      expect(log).toMatchObject({ permission_code: 'deposit:audit', target: `deposit#${id}` });
      expect(log.summary).toContain('确认充值');

      for (const action of ['confirm', 'reject']) {
        const again = await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action, remark: '重复' } });
        expect(again).toMatchObject({ code: 409, msg: '该充值已处理' });
      }
      expect(await billsOf(t, memberId)).toHaveLength(1);
      expect(await opLogCount(t)).toBe(before + 1);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('reject needs a remark, moves no money and cannot be confirmed afterwards', async () => {
      const { id } = await submit();
      const before = await opLogCount(t);
      expect(
        await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'reject', remark: '  ' } }),
      ).toMatchObject({
        code: 400,
        msg: '备注不能为空',
      });
      expect(await opLogCount(t)).toBe(before);
      const r = await t.call('POST', '/v1/admin/deposit/opt', {
        token,
        body: { id, action: 'reject', remark: '未到账' },
      });
      expect(r.data).toEqual({ id, status: 2 });
      const row = await t.db.db.selectFrom('deposit').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 2, remark: '未到账', auditor_name: 'admin' });
      expect(await billsOf(t, memberId)).toEqual([]);
      expect(await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'confirm' } })).toMatchObject({
        code: 409,
        msg: '该充值已处理',
      });
    });

    it('answers 404 for a missing deposit, 400 for bad input and 403 without deposit:audit', async () => {
      expect(
        await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id: 999, action: 'confirm' } }),
      ).toMatchObject({
        code: 404,
        msg: '充值记录不存在',
      });
      expect(await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id: 1, action: 'pay' } })).toMatchObject({
        code: 400,
        msg: '操作取值无效',
      });
      expect(await t.call('POST', '/v1/admin/deposit/opt', { token, body: { action: 'confirm' } })).toMatchObject({
        code: 400,
        msg: '充值ID不能为空',
      });
      const { id } = await submit();
      const viewer = await actingAs(t, 'viewer1', ['deposit:view']);
      expect(
        await t.call('POST', '/v1/admin/deposit/opt', { token: viewer.token, body: { id, action: 'confirm' } }),
      ).toMatchObject({ code: 403, msg: '无权限' });
      expect(await billsOf(t, memberId)).toEqual([]);
    });

    it('50 concurrent confirms credit exactly once', async () => {
      const { id } = await submit({ amount: '17' });
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'confirm' } }),
        ),
      );
      expect(results.filter((r) => r.code === 200)).toHaveLength(1);
      expect(results.filter((r) => r.code === 409)).toHaveLength(49);
      expect(await billsOf(t, memberId)).toHaveLength(1);
      expect((await balancesOf(t.db.db, memberId)).USDT.available).toBe(17_000_000n);
    });
  });

  describe('deposit/list', () => {
    it('filters by keyword, txHash, chain, status and range, pages, sorts and sums', async () => {
      const other = await addMember(t);
      const erc = await addDepositAccount(t, 'ERC20');
      const tx = trc20Tx();
      const t0 = t.clock.now();
      t.clock.set(t0 - 86_400_000);
      const a = await submit({ amount: '10', txHash: tx });
      t.clock.set(t0);
      const b = await submit({ amount: '20.25' });
      const c = await submit({
        memberId: other,
        amount: '30',
        chain: 'ERC20',
        fromAddress: erc20Address(),
        txHash: erc20Tx(),
      });
      await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id: b.id, action: 'confirm' } });
      const list = (query: Record<string, unknown>) => t.call('GET', '/v1/admin/deposit/list', { token, query });

      const all = await list({});
      if (all.code !== 200) throw new Error(all.msg);
      expect(all.data.total).toBe(3);
      expect(all.data.list.map((r: any) => r.id)).toEqual([c.id, b.id, a.id]);
      expect(all.data.sum).toEqual({ amount: '60.25', count: 3 });
      expect(all.data.list[0]).toMatchObject({ chain: 'ERC20', toAddress: erc.address, amount: '30', status: 0 });

      const m = await t.db.db
        .selectFrom('member')
        .select(['uid', 'phone'])
        .where('id', '=', memberId)
        .executeTakeFirstOrThrow();
      expect((await list({ keyword: m.uid })).data.sum).toEqual({ amount: '30.25', count: 2 });
      expect((await list({ keyword: m.phone.slice(0, 9) })).data.total).toBeGreaterThanOrEqual(2);
      expect((await list({ txHash: tx })).data.list.map((r: any) => r.id)).toEqual([a.id]);
      expect((await list({ chain: 'ERC20' })).data.list.map((r: any) => r.id)).toEqual([c.id]);
      expect((await list({ status: 1 })).data.list).toMatchObject([{ id: b.id, status: 1, auditorName: 'admin' }]);
      const day2 = new Date(t.clock.now() + 8 * 3600_000).toISOString().slice(0, 10);
      expect((await list({ start: day2 })).data.sum.count).toBe(2);
      expect((await list({ end: String(t.clock.now() - 1) })).data.list.map((r: any) => r.id)).toEqual([a.id]);
      const page2 = await list({ size: 2, page: 2, sort: 'amount', order: 'asc' });
      expect(page2.data).toMatchObject({ total: 3, page: 2, size: 2 });
      expect(page2.data.list.map((r: any) => r.id)).toEqual([c.id]);
    });

    it('keeps deposit_stat exact and pages by cursor exactly as by page number, under every sort', async () => {
      const other = await addMember(t);
      const otherUid = (
        await t.db.db.selectFrom('member').select('uid').where('id', '=', other).executeTakeFirstOrThrow()
      ).uid;
      await addDepositAccount(t, 'ERC20');
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) {
        t.clock.advance(i % 4 === 0 ? 0 : 60_000); // some share a creation time
        const amount = String(10 + ((i * 37) % 17)); // repeated amounts: ties broken by id
        const erc = i % 7 === 0;
        ids.push(
          (
            await submit({
              amount,
              ...(i % 3 === 0 ? { memberId: other } : {}),
              ...(erc ? { chain: 'ERC20', fromAddress: erc20Address(), txHash: erc20Tx() } : {}),
            })
          ).id,
        );
      }
      for (const [i, id] of ids.entries()) {
        t.clock.advance(1000);
        if (i % 5 === 0)
          await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'reject', remark: '未到账' } });
        else if (i % 2 === 0) await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'confirm' } });
      }
      expect(await depositStatViolations(t.db.db)).toEqual([]);
      expect(await billStatViolations(t.db.db)).toEqual([]);
      const list = (query: Record<string, unknown>) => t.call('GET', '/v1/admin/deposit/list', { token, query });
      const size = 6;
      for (const q of [
        {},
        { order: 'asc' },
        { sort: 'createdAt' },
        { sort: 'amount', order: 'asc' },
        { sort: 'amount' },
        { sort: 'auditedAt' },
        { sort: 'auditedAt', order: 'asc' },
        { status: 0 },
        { status: 1, sort: 'amount' },
        { chain: 'TRC20', sort: 'createdAt', order: 'asc' },
        { keyword: otherUid, sort: 'amount' },
      ] as Array<Record<string, unknown>>) {
        await expectCursorPagingMatchesOffset(list, q, size);
        const first = await list({ ...q, size });
        // Total and sum (from deposit_stat for a status or nothing): equal to counting the rows.
        const m = q.keyword ? other : undefined;
        const rows = await t.db.db
          .selectFrom('deposit')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.cast<string>(eb.fn.sum('amount'), 'text').as('a')])
          .$if(q.status !== undefined, (qb) => qb.where('status', '=', q.status as number))
          .$if(q.chain !== undefined, (qb) => qb.where('chain', '=', q.chain as string))
          .$if(m !== undefined, (qb) => qb.where('member_id', '=', m!))
          .executeTakeFirstOrThrow();
        expect({ q, total: first.data.total, count: first.data.sum.count }).toEqual({
          q,
          total: Number(rows.n),
          count: Number(rows.n),
        });
        expect({ q, sum: first.data.sum.amount }).toEqual({ q, sum: String(BigInt(rows.a) / 1_000_000n) });
      }
      // A page number past MAX_OFFSET rows is refused without a cursor; a bad cursor is a 400.
      expect(await list({ page: 10_000, size: 20 })).toMatchObject({ code: 400 });
      expect(await list({ after: 'x' })).toMatchObject({ code: 400 });
      expect(await list({ after: '1_1', before: '1_1' })).toMatchObject({ code: 400 });
    });

    it('refuses bad filters and callers without deposit:view', async () => {
      const list = (query: Record<string, unknown>, tk = token) =>
        t.call('GET', '/v1/admin/deposit/list', { token: tk, query });
      expect(await list({ status: 9 })).toMatchObject({ code: 400, msg: '状态取值无效' });
      expect(await list({ chain: 'BTC' })).toMatchObject({ code: 400, msg: '链取值无效' });
      expect(await list({ start: 'yesterday' })).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
      expect(await list({ size: 101 })).toMatchObject({ code: 400, msg: '每页条数不能大于100' });
      const other = await actingAs(t, 'other1', ['withdraw:view']);
      expect(await list({}, other.token)).toMatchObject({ code: 403 });
    });
  });

  describe('deposit/setting', () => {
    it('reads the defaults, saves, and reads back what was saved with who and when', async () => {
      const get = () => t.call('GET', '/v1/admin/deposit/setting', { token });
      expect((await get()).data).toEqual({
        open: true,
        min: '10',
        chains: ['TRC20', 'ERC20'],
        tips: '',
        updatedAt: null,
        updatedBy: '',
      });
      const saved = await t.call('POST', '/v1/admin/deposit/setting', {
        token,
        body: { open: false, min: '20.500', chains: ['ERC20'], tips: ' 请核对地址 ' },
      });
      expect(saved.data).toEqual({
        open: false,
        min: '20.5',
        chains: ['ERC20'],
        tips: '请核对地址',
        updatedAt: t.clock.now(),
        updatedBy: 'admin',
      });
      expect((await get()).data).toEqual(saved.data);
      expect((await opLogs(t)).at(-1)).toMatchObject({ permission_code: 'depositSetting:update' });
    });

    it('refuses bad values naming the field, and callers without depositSetting:update', async () => {
      const save = (body: unknown, tk = token) => t.call('POST', '/v1/admin/deposit/setting', { token: tk, body });
      const good = { open: true, min: '10', chains: ['TRC20'], tips: '' };
      expect(await save({ ...good, min: '0' })).toMatchObject({ code: 400, msg: '最低充值金额必须大于0' });
      expect(await save({ ...good, min: '-1' })).toMatchObject({ code: 400, msg: '最低充值金额不能为负数' });
      expect(await save({ ...good, min: '1.1234567' })).toMatchObject({ code: 400, msg: '最低充值金额小数位数过多' });
      expect(await save({ ...good, chains: [] })).toMatchObject({ code: 400, msg: '开放充值时至少选择一条链' });
      expect(await save({ ...good, chains: ['BTC'] })).toMatchObject({ code: 400, msg: '链取值无效' });
      expect(await save({ ...good, open: undefined })).toMatchObject({ code: 400, msg: '充值开关不能为空' });
      const viewer = await actingAs(t, 'viewer2', ['deposit:view']);
      expect(await save(good, viewer.token)).toMatchObject({ code: 403 });
      expect(await t.call('GET', '/v1/admin/deposit/setting', { token: viewer.token })).toMatchObject({ code: 403 });
      expect((await t.call('GET', '/v1/admin/deposit/setting', { token })).data.updatedAt).toBeNull();
    });
  });

  describe('deposit/account', () => {
    const opt = (body: unknown, tk?: string) =>
      t.call('POST', '/v1/admin/deposit/account/opt', { token: tk ?? token, body });
    const list = (query: Record<string, unknown> = {}) =>
      t.call('GET', '/v1/admin/deposit/account/list', { token, query });

    it('creates, updates, disables, enables and deletes, each with an op-log row', async () => {
      const address = erc20Address();
      const before = await opLogCount(t);
      const created = await opt({
        action: 'create',
        chain: 'ERC20',
        address,
        qrUrl: '/uploads/qr.png',
        remark: '主地址',
      });
      expect(created.code).toBe(200);
      const id = created.data.id;
      expect((await list({ chain: 'ERC20' })).data.list).toEqual([
        expect.objectContaining({ id, chain: 'ERC20', address, qrUrl: '/uploads/qr.png', status: 1, remark: '主地址' }),
      ]);
      const next = trc20Address();
      expect((await opt({ action: 'update', id, chain: 'TRC20', address: next, remark: '换链' })).code).toBe(200);
      expect((await opt({ action: 'disable', id })).code).toBe(200);
      expect((await list({ status: 0 })).data.list).toEqual([
        expect.objectContaining({
          id,
          chain: 'TRC20',
          address: next,
          status: 0,
          remark: '换链',
          qrUrl: '/uploads/qr.png',
        }),
      ]);
      expect(await opt({ action: 'disable', id })).toMatchObject({ code: 409, msg: '该收款地址已停用' });
      expect((await opt({ action: 'enable', id })).code).toBe(200);
      expect(await opt({ action: 'enable', id })).toMatchObject({ code: 409, msg: '该收款地址已启用' });
      expect((await list({ address: next.slice(0, 10) })).data.list[0]).toMatchObject({ id, status: 1 });
      expect((await opt({ action: 'delete', id })).code).toBe(200);
      expect((await list({ address: next })).data.total).toBe(0);
      expect(await opLogCount(t)).toBe(before + 5);
      expect((await opLogs(t)).at(-1)).toMatchObject({
        permission_code: 'depositAccount:opt',
        target: `depositAccount#${id}`,
      });
    });

    it('checks the address format per chain, duplicates, ids and permission', async () => {
      expect(await opt({ action: 'create', chain: 'TRC20', address: erc20Address() })).toMatchObject({
        code: 400,
        msg: '地址格式不正确（TRC20地址以T开头，共34位）',
      });
      expect(await opt({ action: 'create', chain: 'TRC20', address: `T${'0'.repeat(33)}` })).toMatchObject({
        code: 400,
      });
      expect(await opt({ action: 'create', chain: 'ERC20', address: '0x1234' })).toMatchObject({
        code: 400,
        msg: '地址格式不正确（ERC20地址以0x开头，后跟40位十六进制）',
      });
      expect(await opt({ action: 'create', address: trc20Address() })).toMatchObject({ code: 400, msg: '链不能为空' });
      expect(await opt({ action: 'create', chain: 'TRC20' })).toMatchObject({ code: 400, msg: '地址不能为空' });
      expect(await opt({ action: 'create', chain: 'TRC20', address: account.address })).toMatchObject({
        code: 400,
        msg: '该地址已存在',
      });
      expect(await opt({ action: 'disable' })).toMatchObject({ code: 400, msg: '收款地址ID不能为空' });
      expect(await opt({ action: 'delete', id: 9999 })).toMatchObject({ code: 404, msg: '收款地址不存在' });
      expect(await opt({ action: 'rename', id: account.id })).toMatchObject({ code: 400, msg: '操作取值无效' });
      const viewer = await actingAs(t, 'viewer3', ['depositAccount:view']);
      expect(await opt({ action: 'disable', id: account.id }, viewer.token)).toMatchObject({ code: 403 });
      expect((await t.call('GET', '/v1/admin/deposit/account/list', { token: viewer.token })).data.total).toBe(1);
      const none = await actingAs(t, 'none3', []);
      expect(await t.call('GET', '/v1/admin/deposit/account/list', { token: none.token })).toMatchObject({ code: 403 });
    });
  });

  it('keeps the ledger consistent after credits and confirms', async () => {
    await credit(t, memberId, 'USDT', '1');
    const { id } = await submit({ amount: '12' });
    await t.call('POST', '/v1/admin/deposit/opt', { token, body: { id, action: 'confirm' } });
    expect((await balancesOf(t.db.db, memberId)).USDT.available).toBe(13_000_000n);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });
});
