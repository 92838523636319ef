/**
 * withdraw/export and deposit/export: the list's filters, every row newest first, amounts as decimal
 * strings in the record's asset, addresses and hashes whole; each behind its own export code (提现 and
 * 提取 apart).
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { depositExport, submitDeposit } from '../../../../server/modules/deposits/deposits.service';
import { withdrawExport } from '../../../../server/modules/withdrawals/withdrawals.export';
import { requestWithdrawal } from '../../../../server/modules/withdrawals/requestWithdrawal.service';
import { formatTime } from '../../../../domain/time';
import { expectCopyMatchesBatches } from '../../exportCompare';
import { build, dbKind, type TestApp } from '../../helpers';
import { addDepositAccount, addMember, credit, trc20Address, trc20Tx } from '../deposits/fixtures';
import { actingAs } from '../system/fixtures';
import { WITHDRAW_SETTING } from './fixtures';

/** This process's descriptors open on a test database file (none on PostgreSQL). */
const openDbFiles = () =>
  fs.existsSync('/proc/self/fd')
    ? fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return /lz-test-db-[^/]+\/test\.db$/.test(fs.readlinkSync(`/proc/self/fd/${fd}`));
        } catch {
          return false;
        }
      }).length
    : 0;

describe(`money exports and record links (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let memberId: number;
  let uid: string;
  const get = (url: string, query: Record<string, string | number>, tk = token) =>
    t.app.inject({
      method: 'GET',
      url,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      headers: { authorization: tk },
    });
  const csvLines = (payload: Buffer) => payload.toString('utf8').slice(1).trimEnd().split('\r\n');

  beforeEach(async () => {
    // On SQLite a file, so the exports read through their own connection (Db.reader) as in production.
    t = await build({ onFile: true });
    expect(Boolean(t.app.ctx.reader)).toBe(dbKind === 'sqlite');
    token = await t.login();
    memberId = await addMember(t);
    uid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', memberId).executeTakeFirstOrThrow()).uid;
    await credit(t, memberId, 'USDT', '10000');
    await credit(t, memberId, 'LZ', '100000');
    for (const type of [1, 2]) {
      const r = await t.call('POST', '/v1/admin/withdraw/setting', { token, body: { type, ...WITHDRAW_SETTING } });
      expect(r.code).toBe(200);
    }
  });
  afterEach(() => t.close());

  it('exports the filtered withdrawals of one type, newest first, as xlsx and csv', async () => {
    const address = trc20Address();
    const ids: number[] = [];
    for (const amount of ['150', '200.5', '987.654321']) {
      ids.push((await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount, chain: 'TRC20', address })).id);
    }
    await requestWithdrawal(t.app.ctx, { memberId, type: 2, amount: '500', chain: 'TRC20', address });

    const res = await get('/v1/admin/withdraw/export', { type: 1, keyword: uid });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('提现记录_'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = wb.getWorksheet('提现记录')!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0].slice(1, 10)).toEqual([
      'ID',
      '会员UID',
      '手机号',
      '昵称',
      '金额（USDT）',
      '手续费（USDT）',
      '实际到账（USDT）',
      '链',
      '地址',
    ]);
    expect(rows.slice(1).map((r) => r[1])).toEqual([...ids].reverse());
    // 987.654321 × 1 % = 9.87654321 → the fee rounded up to the minor unit; exact decimals throughout.
    expect(rows[1].slice(5, 11)).toEqual(['987.654321', '9.876544', '977.777777', 'TRC20', address, '待审核']);

    const csv = await get('/v1/admin/withdraw/export', { type: 2, format: 'csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csvLines(csv.rawPayload);
    expect(lines[0]).toBe(
      'ID,会员UID,手机号,昵称,金额（LZ）,手续费（LZ）,实际到账（LZ）,链,地址,状态,交易哈希,备注,审核人,申请时间,审核时间,打款时间',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,500,`);
  });

  it('makes the same withdrawal CSV from COPY (PostgreSQL) as from its batches', async () => {
    const address = trc20Address();
    const ids: number[] = [];
    for (const amount of ['150', '200.5', '987.654321', '120']) {
      ids.push((await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount, chain: 'TRC20', address })).id);
    }
    const elsewhere = trc20Address();
    await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount: '130', chain: 'TRC20', address: elsewhere });
    await requestWithdrawal(t.app.ctx, { memberId, type: 2, amount: '500', chain: 'TRC20', address });
    const opt = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/withdraw/opt', { token, body });
    t.clock.advance(30_000);
    expect((await opt({ id: ids[0], action: 'approve' })).code).toBe(200);
    const hash = trc20Tx();
    t.clock.advance(61_000);
    expect((await opt({ id: ids[0], action: 'paid', txHash: hash })).code).toBe(200);
    expect((await opt({ id: ids[1], action: 'approve' })).code).toBe(200);
    expect((await opt({ id: ids[2], action: 'reject', remark: '="拒绝", 地址\n第二行 "引号"' })).code).toBe(200);
    await expectCopyMatchesBatches(t, token, '/v1/admin/withdraw/export', withdrawExport, [
      { type: 1 },
      { type: 2 },
      { type: 1, keyword: uid },
      { type: 1, status: 3 },
      { type: 1, address },
    ]);
    const lines = csvLines((await get('/v1/admin/withdraw/export', { type: 1, format: 'csv' })).rawPayload);
    expect(lines.join('\n')).toContain(`"'=""拒绝"", 地址\n第二行 ""引号"""`);
    const there = await get('/v1/admin/withdraw/export', { type: 1, address: elsewhere, format: 'csv' });
    expect(csvLines(there.rawPayload)).toHaveLength(2);
    // Every cell of the paid one where it belongs: both paths share the indexes, so a swap would pass above.
    const member = await t.db.db
      .selectFrom('member')
      .select(['phone', 'nickname'])
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    const [asked, audited] = [formatTime(t.clock.now() - 91_000), formatTime(t.clock.now() - 61_000)];
    const cells = [ids[0], uid, member.phone, member.nickname, '150', '1.5', '148.5', 'TRC20', address, '已完成'];
    const rest = [hash.toLowerCase(), '', 'admin', asked, audited, formatTime(t.clock.now())];
    expect(lines.find((l) => l.startsWith(`${ids[0]},`))).toBe([...cells, ...rest].join(','));
  });

  it('asks for the export code of the type, and refuses what the list would refuse', async () => {
    const viewer = await actingAs(t, 'exporter', ['withdraw:view', 'extract:view', 'withdraw:export']);
    expect((await get('/v1/admin/withdraw/export', { type: 1 }, viewer.token)).statusCode).toBe(200);
    const other = await get('/v1/admin/withdraw/export', { type: 2 }, viewer.token);
    expect(other.json()).toMatchObject({ code: 403, msg: '无权限' });
    const bad = await get('/v1/admin/withdraw/export', { type: 1, start: 5, end: 1 });
    expect(bad.json().code).toBe(400);
    // A refused export opens its reader and closes it: no database file left open per refusal.
    const before = openDbFiles();
    for (let i = 0; i < 5; i++)
      expect((await get('/v1/admin/deposit/export', { start: 5, end: 1 })).json().code).toBe(400);
    expect(openDbFiles()).toBeLessThanOrEqual(before + 1);
    const cursor = await get('/v1/admin/withdraw/export', { type: 1, after: '1_1' });
    expect(cursor.json().code).toBe(400);
    const noCode = await actingAs(t, 'looker', ['deposit:view']);
    expect((await get('/v1/admin/deposit/export', {}, noCode.token)).json()).toMatchObject({ code: 403 });
  });

  it('exports the filtered deposits with both addresses and the hash whole', async () => {
    await addDepositAccount(t, 'TRC20');
    const account = await t.db.db.selectFrom('deposit_account').select('address').executeTakeFirstOrThrow();
    const from = trc20Address();
    const tx = trc20Tx();
    const d = await submitDeposit(t.app.ctx, {
      memberId,
      chain: 'TRC20',
      fromAddress: from,
      amount: '100.5',
      txHash: tx,
    });
    await submitDeposit(t.app.ctx, { memberId, chain: 'TRC20', fromAddress: from, amount: '17', txHash: trc20Tx() });
    const res = await get('/v1/admin/deposit/export', { format: 'csv', txHash: tx });
    expect(res.statusCode).toBe(200);
    const lines = csvLines(res.rawPayload);
    expect(lines[0]).toBe(
      'ID,会员UID,手机号,昵称,链,金额（USDT）,付款地址,收款地址,交易哈希,状态,备注,审核人,提交时间,审核时间',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1].startsWith(`${d.id},${uid},`)).toBe(true);
    expect(lines[1]).toContain(`,TRC20,100.5,${from},${account.address},${tx.toLowerCase()},待确认,`);
  });

  it('makes the same deposit CSV from COPY (PostgreSQL) as from its batches', async () => {
    await addDepositAccount(t, 'TRC20');
    const from = trc20Address();
    const ids: number[] = [];
    for (const amount of ['100.5', '17', '30']) {
      ids.push(
        (await submitDeposit(t.app.ctx, { memberId, chain: 'TRC20', fromAddress: from, amount, txHash: trc20Tx() })).id,
      );
    }
    const opt = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/deposit/opt', { token, body });
    expect((await opt({ id: ids[0], action: 'confirm' })).code).toBe(200);
    expect((await opt({ id: ids[1], action: 'reject', remark: '@未到账, "重复"\n请核对' })).code).toBe(200);
    await expectCopyMatchesBatches(t, token, '/v1/admin/deposit/export', depositExport, [
      {},
      { status: 2 },
      { keyword: uid },
      { chain: 'TRC20' },
    ]);
    expect(csvLines((await get('/v1/admin/deposit/export', { format: 'csv' })).rawPayload).join('\n')).toContain(
      `"'@未到账, ""重复""\n请核对"`,
    );
  });

  it('lists one withdrawal or deposit by id (the link from its bill), with the exact total', async () => {
    const address = trc20Address();
    const a = await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount: '150', chain: 'TRC20', address });
    await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount: '160', chain: 'TRC20', address });
    const one = await t.call('GET', `/v1/admin/withdraw/list?type=1&id=${a.id}`, { token });
    expect(one.data).toMatchObject({ total: 1, sum: { amount: '150', count: 1 } });
    expect(one.data.list.map((w: { id: number }) => w.id)).toEqual([a.id]);
    // The id of a record of the other type is not on this page.
    expect((await t.call('GET', `/v1/admin/withdraw/list?type=2&id=${a.id}`, { token })).data.total).toBe(0);
    expect((await t.call('GET', '/v1/admin/withdraw/list?type=1&id=0', { token })).code).toBe(400);

    await addDepositAccount(t, 'TRC20');
    const from = trc20Address();
    const d = await submitDeposit(t.app.ctx, {
      memberId,
      chain: 'TRC20',
      fromAddress: from,
      amount: '20',
      txHash: trc20Tx(),
    });
    await submitDeposit(t.app.ctx, { memberId, chain: 'TRC20', fromAddress: from, amount: '30', txHash: trc20Tx() });
    const dep = await t.call('GET', `/v1/admin/deposit/list?id=${d.id}`, { token });
    expect(dep.data).toMatchObject({ total: 1, sum: { amount: '20', count: 1 } });
  });
});
