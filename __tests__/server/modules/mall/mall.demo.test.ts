import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { seedMallDemo } from '../../../../server/modules/mall/mall.demo';
import { mallStatViolations } from '../../../../server/modules/mall/orders.repository';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember } from '../deposits/fixtures';

jest.setTimeout(120_000);

describe(`mall demo data (${dbKind})`, () => {
  let t: TestApp;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-mall-demo-'));
  beforeAll(async () => {
    t = await build({ config: { uploadDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('makes products with images and orders in every status through the services, once', async () => {
    for (let i = 0; i < 20; i += 1) await addMember(t);
    await seedMallDemo(t.app.ctx, 80, 30);
    const products = await t.db.db.selectFrom('product').selectAll().execute();
    expect(products.map((p) => p.kind).sort()).toContain(2);
    expect(products.some((p) => p.status === 0) && products.some((p) => p.status === 1)).toBe(true);
    for (const p of products) {
      const file = path.join(uploadDir, p.cover.replace(/^\/uploads\//, ''));
      expect(await sharp(file).metadata()).toMatchObject({ format: 'webp', width: 600 });
      expect(fs.existsSync(file.replace(/\.webp$/, '_thumb.webp'))).toBe(true);
      expect(p.detail).toContain('<h2>');
    }
    const statuses = await t.db.db.selectFrom('mall_order').select('status').distinct().execute();
    expect(statuses.map((s) => s.status).sort()).toEqual([1, 2, 3, 4]);
    const seeds = await t.db.db.selectFrom('seed').select('ref_id').where('source', '=', 1).execute();
    expect(seeds.length).toBeGreaterThan(0);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await mallStatViolations(t.db.db)).toEqual([]);
    const n = (
      await t.db.db
        .selectFrom('mall_order')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    await seedMallDemo(t.app.ctx, 80, 30);
    const again = await t.db.db
      .selectFrom('mall_order')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(again.n)).toBe(Number(n));
  });
});
