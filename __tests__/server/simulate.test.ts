/**
 * `npm run simulate` (server/simulate.ts): one tick makes member activity through the member-side
 * services, and the ledger invariant holds afterwards.
 */
import { ledgerViolations } from '../../server/modules/ledger/ledger.service';
import { Simulator } from '../../server/simulate';
import { build, dbKind, type TestApp } from './helpers';
import { addDepositAccount, credit } from './modules/deposits/fixtures';

const count = async (t: TestApp, table: 'member' | 'deposit' | 'withdrawal' | 'transfer' | 'payment_method' | 'bill') =>
  Number(
    (
      await t.db.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`simulator (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
    await addDepositAccount(t, 'TRC20');
    await addDepositAccount(t, 'ERC20');
  }, 60_000);
  afterEach(() => t.close());

  it('opens its members, then one tick makes deposits, withdrawals, transfers and payment methods', async () => {
    const sim = new Simulator(t.app.ctx, { actions: 40, members: 6, seed: 7 });
    await sim.ensureMembers();
    expect(await count(t, 'member')).toBe(6);
    const members = await t.db.db.selectFrom('member').select('id').execute();
    for (const m of members) {
      await credit(t, Number(m.id), 'USDT', '5000');
      await credit(t, Number(m.id), 'LZ', '50000');
    }
    const bills = await count(t, 'bill');
    const r = await sim.tick();
    const done = Object.values(r.done).reduce((a, b) => a + b, 0);
    const refused = Object.values(r.refused).reduce((a, b) => a + b, 0);
    expect(done + refused).toBe(40);
    expect(r.done.deposit).toBeGreaterThan(0);
    expect(r.done.withdraw + r.done.extract).toBeGreaterThan(0);
    expect(r.done.transfer).toBeGreaterThan(0);
    expect(r.done.payment).toBeGreaterThan(0);
    expect(await count(t, 'deposit')).toBe(r.done.deposit);
    expect(await count(t, 'withdrawal')).toBe(r.done.withdraw + r.done.extract);
    expect(await count(t, 'transfer')).toBe(r.done.transfer);
    expect(await count(t, 'payment_method')).toBe(r.done.payment);
    // a withdrawal request freezes (one bill), a transfer moves money (two bills)
    expect(await count(t, 'bill')).toBe(bills + r.done.withdraw + r.done.extract + 2 * r.done.transfer);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    // a second tick keeps going on the same members
    await sim.tick();
    expect(await count(t, 'member')).toBe(6);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  }, 60_000);

  it('makes money-free activity (deposits, payment methods) for members with nothing yet', async () => {
    const sim = new Simulator(t.app.ctx, { actions: 10, members: 3, seed: 3 });
    const r = await sim.tick();
    expect(r.done.deposit).toBeGreaterThan(0);
    expect(await count(t, 'deposit')).toBe(r.done.deposit);
    for (const msg of Object.keys(r.refused)) expect(msg).toMatch(/余额不足|每日最多/);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  }, 60_000);
});
