/**
 * The simulator's economy share (server/simulate.ts `economy`): pledges, seed grants, mall orders and match
 * steps (open, pay, confirm, appeal) through the member-side services, the ledger and the counters consistent after.
 */
import { billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { mallStatViolations } from '../../../../server/modules/mall/orders.repository';
import { operateProducts, saveProduct, saveSkus } from '../../../../server/modules/mall/products.service';
import { matchStatViolations } from '../../../../server/modules/matches/matches.repository';
import { addPaymentMethod, paymentOpt } from '../../../../server/modules/payments/payments.service';
import { createMode } from '../../../../server/modules/pledge/pledge.service';
import { seedCounterViolations } from '../../../../server/modules/seeds/seeds.query';
import { Simulator } from '../../../../server/simulate';
import { build, dbKind, type TestApp } from '../../helpers';
import { credit } from '../deposits/fixtures';
import { adminId } from '../system/fixtures';

describe(`simulator economy (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(() => t.close());

  it('pledges, grants seeds, buys in the mall and walks matches, every move through the ledger', async () => {
    const sim = new Simulator(t.app.ctx, { actions: 60, members: 5, seed: 11, economy: 1 });
    await sim.ensureMembers();
    const actor = { managerId: await adminId(t), username: 'admin', ip: '127.0.0.1' };
    await createMode(t.app.ctx, { name: '30天', days: 30, rate: '0.001', minAmount: '10', maxAmount: '100000' }, actor);
    const { id: productId } = await saveProduct(t.app.ctx, actor, {
      name: '能量种子',
      kind: 2,
      asset: 'LZ',
      cover: '/uploads/c.webp',
      gallery: [],
      detail: '',
      seedEnergy: '10',
      seedDays: 10,
      sort: 0,
    });
    await saveSkus(t.app.ctx, actor, {
      productId,
      specs: [],
      skus: [{ values: [], price: '5', stock: 1000, image: '' }],
    });
    await operateProducts(t.app.ctx, actor, { ids: [productId], action: 'onShelf' });
    for (const m of await t.db.db.selectFrom('member').select('id').execute()) {
      const id = Number(m.id);
      await credit(t, id, 'LZ', '100000');
      const p = await addPaymentMethod(t.app.ctx, {
        memberId: id,
        type: 3,
        holder: '何静',
        account: `wx_${id}`,
        qrUrl: '/uploads/q.png',
      });
      await paymentOpt(t.app.ctx, actor, { id: p.id, action: 'approve' });
    }
    const r = await sim.tick();
    const r2 = await sim.tick();
    const done = (k: keyof typeof r.done) => r.done[k] + r2.done[k];
    expect(done('pledge')).toBeGreaterThan(0);
    expect(done('seed')).toBeGreaterThan(0);
    expect(done('order')).toBeGreaterThan(0);
    expect(done('matchOpen')).toBeGreaterThan(0);
    expect(done('matchPay') + done('matchConfirm') + done('matchAppeal')).toBeGreaterThan(0);
    expect(done('deposit') + done('transfer')).toBe(0);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await matchStatViolations(t.db.db)).toEqual([]);
    expect(await mallStatViolations(t.db.db)).toEqual([]);
    expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
  }, 60_000);
});
