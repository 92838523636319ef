import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { seedPaymentsTransfersDemo } from '../../../../server/modules/payments/payments.demo';
import { build, dbKind, type TestApp } from '../../helpers';

jest.setTimeout(120_000);

describe(`payment and transfer demo data (${dbKind})`, () => {
  let t: TestApp;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-pay-demo-'));
  beforeAll(async () => {
    t = await build({ config: { uploadDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('makes methods in every status and transfers through the services, consistently, once', async () => {
    await seedPaymentsTransfersDemo(t.app.ctx);
    const statuses = await t.db.db.selectFrom('payment_method').select('status').distinct().execute();
    expect(statuses.map((s) => s.status).sort()).toEqual([0, 1, 2, 3]);
    const types = await t.db.db.selectFrom('payment_method').select('type').distinct().execute();
    expect(types.map((s) => s.type).sort()).toEqual([1, 2, 3, 4]);
    const transfers = await t.db.db.selectFrom('transfer').selectAll().execute();
    expect(transfers.length).toBeGreaterThan(5);
    const bills = await t.db.db.selectFrom('bill').select('type').where('type', 'in', [5, 6]).execute();
    expect(bills).toHaveLength(transfers.length * 2);
    expect(
      (await t.db.db.selectFrom('op_log').select('id').where('permission_code', '=', 'payment:opt').execute()).length,
    ).toBeGreaterThan(0);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    // 支付宝 and 微信 methods carry a 收款码 that exists: a real image served from the upload store.
    const qrs = await t.db.db
      .selectFrom('payment_method')
      .select(['type', 'qr_url'])
      .where('type', 'in', [2, 3])
      .execute();
    expect(qrs.length).toBeGreaterThan(0);
    for (const url of new Set(qrs.map((q) => q.qr_url))) {
      expect(url).toMatch(/^\/uploads\/demo\/qr\/(alipay|wechat)-\d\.webp$/);
      const res = await t.app.inject({ method: 'GET', url: url! });
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([url, 200, 'image/webp']);
    }
    const before = transfers.length;
    await seedPaymentsTransfersDemo(t.app.ctx);
    expect(await t.db.db.selectFrom('transfer').selectAll().execute()).toHaveLength(before);
  });
});
