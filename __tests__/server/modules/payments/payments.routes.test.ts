import ExcelJS from 'exceljs';
import * as repo from '../../../../server/modules/payments/payments.repository';
import { addPaymentMethod } from '../../../../server/modules/payments/payments.service';
import { expectCopyMatchesBatches } from '../../exportCompare';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, trc20Address } from '../deposits/fixtures';
import { actingAs, opLogCount, opLogs } from '../system/fixtures';

// build() migrates a fresh database (a PostgreSQL schema) per test: slow on a shared machine.
jest.setTimeout(60_000);

describe(`payment methods (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let memberId: number;
  const add = (over: Partial<Parameters<typeof addPaymentMethod>[1]> = {}) =>
    addPaymentMethod(t.app.ctx, {
      memberId,
      type: 1,
      holder: '张三',
      account: '6222 0212 3456 7890',
      bank: '工商银行',
      branch: '北京分行',
      ...over,
    });
  const opt = (body: Record<string, unknown>, tk = token) =>
    t.call('POST', '/v1/admin/payment/opt', { token: tk, body });
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/payment/list', { token: tk, query });
  const statusOf = async (id: number) =>
    (await t.db.db.selectFrom('payment_method').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    memberId = await addMember(t);
  });
  afterEach(() => t.close());

  describe('addPaymentMethod (member side)', () => {
    it('adds each type waiting for review', async () => {
      const card = await add();
      const ali = await add({ type: 2, account: 'zhang@example.com', qrUrl: '/uploads/qr-ali.png' });
      const wx = await add({ type: 3, account: 'wx_zhang', qrUrl: '/uploads/qr-wx.png' });
      const usdt = await add({ type: 4, account: trc20Address() });
      for (const r of [card, ali, wx, usdt]) expect(r.status).toBe(0);
      const row = await t.db.db
        .selectFrom('payment_method')
        .selectAll()
        .where('id', '=', card.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ account: '6222021234567890', bank: '工商银行', branch: '北京分行', qr_url: '' });
    });

    it('refuses missing or malformed fields', async () => {
      await expect(add({ holder: ' ' })).rejects.toMatchObject({ code: 400, message: '姓名不能为空' });
      await expect(add({ account: '' })).rejects.toMatchObject({ code: 400, message: '账号不能为空' });
      await expect(add({ account: '12ab' })).rejects.toMatchObject({ code: 400, message: '银行卡号格式不正确' });
      await expect(add({ bank: '' })).rejects.toMatchObject({ code: 400, message: '开户银行不能为空' });
      await expect(add({ type: 2, account: 'a@b.c' })).rejects.toMatchObject({ message: '收款二维码不能为空' });
      await expect(add({ type: 4, account: '0xabc' })).rejects.toMatchObject({ code: 400 });
      await expect(add({ memberId: 999999 })).rejects.toMatchObject({ code: 400, message: '会员不存在' });
    });
  });

  describe('payment/list', () => {
    it('filters by keyword, member, type, status and range, newest first', async () => {
      const other = await addMember(t);
      const a = await add();
      t.clock.advance(60_000);
      const b = await add({ type: 4, account: trc20Address() });
      t.clock.advance(60_000);
      const c = await add({ memberId: other, type: 3, account: 'wx1', qrUrl: '/q.png' });
      await opt({ id: b.id, action: 'approve' });
      const all = await list();
      expect(all.data).toMatchObject({ total: 3, page: 1, size: 20 });
      expect(all.data.list.map((r: { id: number }) => r.id)).toEqual([c.id, b.id, a.id]);
      expect(all.data.list[1]).toMatchObject({ type: 4, status: 1, auditorName: 'admin', memberId });
      const m = await t.db.db.selectFrom('member').selectAll().where('id', '=', other).executeTakeFirstOrThrow();
      expect((await list({ keyword: m.uid })).data.list.map((r: { id: number }) => r.id)).toEqual([c.id]);
      expect((await list({ keyword: m.phone.slice(0, 11) })).data.total).toBe(1);
      expect((await list({ memberId })).data.total).toBe(2);
      expect((await list({ type: 4 })).data.list.map((r: { id: number }) => r.id)).toEqual([b.id]);
      expect((await list({ status: 0 })).data.total).toBe(2);
      expect((await list({ start: String(t.clock.now() - 1000) })).data.total).toBe(1);
      expect((await list({ size: 1, page: 2 })).data.list.map((r: { id: number }) => r.id)).toEqual([b.id]);
      expect((await list({ order: 'asc' })).data.list[0].id).toBe(a.id);
    });

    it('refuses bad filters naming the field, and a manager without payment:view', async () => {
      expect(await list({ status: 9 })).toMatchObject({ code: 400, msg: expect.stringContaining('状态') });
      expect(await list({ type: 'x' })).toMatchObject({ code: 400, msg: expect.stringContaining('类型') });
      expect(await list({ start: 'yesterday' })).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
      const nobody = await actingAs(t, 'nobody', ['member:view']);
      expect(await list({}, nobody.token)).toMatchObject({ code: 403, msg: '无权限' });
    });
  });

  describe('payment/opt', () => {
    it('approves, disables and enables with one op-log row each', async () => {
      const { id } = await add();
      expect(await opt({ id, action: 'approve' })).toMatchObject({ code: 200, data: { id, status: 1 } });
      expect(await opt({ id, action: 'disable', remark: '账户异常' })).toMatchObject({ data: { status: 3 } });
      expect(await opt({ id, action: 'enable' })).toMatchObject({ data: { status: 1 } });
      const logs = await opLogs(t);
      expect(logs.map((l) => [l.permission_code, l.target, l.summary])).toEqual([
        ['payment:opt', `payment#${id}`, `通过收款方式 #${id}（银行卡 6222021234567890）`],
        ['payment:opt', `payment#${id}`, `禁用收款方式 #${id}（银行卡 6222021234567890）：账户异常`],
        ['payment:opt', `payment#${id}`, `启用收款方式 #${id}（银行卡 6222021234567890）`],
      ]);
      const row = await t.db.db.selectFrom('payment_method').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 1, remark: '账户异常', auditor_name: 'admin' });
    });

    it('rejects with a required remark', async () => {
      const { id } = await add();
      expect(await opt({ id, action: 'reject' })).toMatchObject({ code: 400, msg: '驳回原因不能为空' });
      expect(await opt({ id, action: 'reject', remark: '  ' })).toMatchObject({ code: 400, msg: '驳回原因不能为空' });
      expect(await opLogCount(t)).toBe(0);
      expect(await opt({ id, action: 'reject', remark: '姓名不符' })).toMatchObject({ data: { status: 2 } });
      expect((await list()).data.list[0]).toMatchObject({ status: 2, remark: '姓名不符' });
      expect((await opLogs(t))[0].summary).toBe(`驳回收款方式 #${id}（银行卡 6222021234567890）：姓名不符`);
    });

    it('answers 409 for a transition from the wrong state and 404 for a missing method, writing nothing', async () => {
      const { id } = await add();
      expect(await opt({ id, action: 'disable' })).toMatchObject({ code: 409, msg: '只能禁用已通过的收款方式' });
      expect(await opt({ id, action: 'enable' })).toMatchObject({ code: 409, msg: '只能启用已禁用的收款方式' });
      await opt({ id, action: 'approve' });
      expect(await opt({ id, action: 'approve' })).toMatchObject({ code: 409, msg: '该收款方式已审核' });
      expect(await opt({ id, action: 'reject', remark: 'x' })).toMatchObject({ code: 409, msg: '该收款方式已审核' });
      expect(await opt({ id: 99999, action: 'approve' })).toMatchObject({ code: 404, msg: '收款方式不存在' });
      expect(await opLogCount(t)).toBe(1);
      expect(await statusOf(id)).toBe(1);
    });

    it('gives one success and one 409 to two managers approving at once', async () => {
      const { id } = await add();
      const rs = await Promise.all([opt({ id, action: 'approve' }), opt({ id, action: 'reject', remark: '重复' })]);
      expect(rs.map((r) => r.code).sort()).toEqual([200, 409]);
      expect(await opLogCount(t)).toBe(1);
    });

    it('refuses bad input naming the field and a manager without payment:opt', async () => {
      const { id } = await add();
      expect(await opt({ id, action: 'delete' })).toMatchObject({ code: 400, msg: expect.stringContaining('操作') });
      expect(await opt({ id: 0, action: 'approve' })).toMatchObject({
        code: 400,
        msg: expect.stringContaining('收款方式ID'),
      });
      const viewer = await actingAs(t, 'viewer', ['payment:view']);
      expect(await opt({ id, action: 'approve' }, viewer.token)).toMatchObject({ code: 403, msg: '无权限' });
      expect(await statusOf(id)).toBe(0);
    });
  });

  describe('payment/export', () => {
    const exportOf = (query: Record<string, string | number>, tk = token) =>
      t.app.inject({
        method: 'GET',
        url: '/v1/admin/payment/export',
        query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
        headers: { authorization: tk },
      });

    it('streams every matching row as xlsx with Chinese headers and a dated name', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await add({ holder: i === 0 ? '=SUM(A1)' : `持卡人${i}` })).id);
      await add({ type: 4, account: trc20Address() });
      const res = await exportOf({ type: 1 });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const day = new Date(t.clock.now() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="export_${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(`收款方式_${day}.xlsx`)}`,
      );
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = wb.getWorksheet('收款方式')!;
      const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
      expect(rows[0].slice(1)).toEqual([
        'ID',
        '会员UID',
        '手机号',
        '昵称',
        '类型',
        '姓名',
        '账号',
        '开户银行',
        '开户支行',
        '收款二维码',
        '状态',
        '备注',
        '审核人',
        '审核时间',
        '添加时间',
      ]);
      expect(rows.length).toBe(6);
      expect(rows.slice(1).map((r) => r[1])).toEqual([...ids].reverse());
      expect(rows[5].slice(5, 9)).toEqual(['银行卡', "'=SUM(A1)", '6222021234567890', '工商银行']);
      expect(rows[1][11]).toBe('待审核');
    });

    it('writes CSV with a BOM when format=csv, quoting what needs it', async () => {
      await add({ holder: '李,四', branch: '说"明"' });
      const res = await exportOf({ format: 'csv' });
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('收款方式_')}`);
      expect(res.headers['content-disposition']).toMatch(/\.csv$/);
      const text = res.rawPayload.toString('utf8');
      expect(text.startsWith('\ufeffID,会员UID,手机号,昵称,类型,姓名,账号,')).toBe(true);
      const lines = text.slice(1).trimEnd().split('\r\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(',银行卡,"李,四",6222021234567890,工商银行,"说""明""",,待审核,');
    });

    it('gives the same CSV from COPY (PostgreSQL) as from its batches, whatever the texts', async () => {
      for (const text of ['=cmd|x', '+86', '-5', '@a', 'a"b', '中,文', ' 空 ', '\\.']) {
        await add({ holder: text, branch: text });
      }
      await add({ type: 4, account: trc20Address() });
      const { paymentExport } = await import('../../../../server/modules/payments/payments.service');
      await expectCopyMatchesBatches(t, token, '/v1/admin/payment/export', paymentExport, [
        {},
        { type: 1 },
        { keyword: 'x' },
      ]);
      expect((await exportOf({ format: 'csv' })).rawPayload.toString('utf8')).toContain(`"a""b"`);
    });

    it('reads in keyset batches where it writes from rows (SQLite; on PostgreSQL a file is one COPY)', async () => {
      for (let i = 0; i < 7; i += 1) await add();
      const spy = jest.spyOn(repo, 'paymentMethodBatch');
      const { paymentExport } = await import('../../../../server/modules/payments/payments.service');
      const { writeExport } = await import('../../../../server/export/export');
      const { PassThrough } = await import('node:stream');
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      // The batch writer's path (SQLite): without a source to open, no COPY on PostgreSQL either.
      const n = await writeExport(paymentExport({ db: t.app.ctx.db, kind: t.app.ctx.kind }, {}, 3), 'csv', out);
      expect(n).toBe(7);
      expect(spy.mock.calls.map((c) => [c[2] === null ? null : 'after', c[3]])).toEqual([
        [null, 3],
        ['after', 3],
        ['after', 3],
      ]);
      // each batch continues below the last id of the one before
      const afterIds = spy.mock.calls.slice(1).map((c) => c[2] as number);
      expect(afterIds[0]).toBeGreaterThan(afterIds[1]);
      expect(Buffer.concat(chunks).toString('utf8').trimEnd().split('\r\n')).toHaveLength(8);
      spy.mockRestore();
    });

    it('answers an envelope, not a file, for bad filters or no permission', async () => {
      const bad = await exportOf({ start: 'x' });
      expect(bad.json()).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
      expect((await exportOf({ format: 'pdf' })).json()).toMatchObject({ code: 400 });
      const viewer = await actingAs(t, 'viewer2', ['payment:view']);
      expect((await exportOf({}, viewer.token)).json()).toMatchObject({ code: 403, msg: '无权限' });
    });
  });
});
