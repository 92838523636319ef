import { ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { seedMembersDemo } from '../../../../server/modules/members/members.demo';
import { seedSystemDemo } from '../../../../server/modules/system/system.demo';
import { seedMoneyDemo } from '../../../../server/modules/withdrawals/money.demo';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember } from '../deposits/fixtures';

const SIZE = { members: 30, deposits: 240, withdrawals: 90, extracts: 50, days: 90 };

describe(`money demo data (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
    for (let i = 0; i < SIZE.members; i++) await addMember(t);
    // Members who joined before the three months (the demo lets a member act only after joining).
    await t.db.db
      .updateTable('member')
      .set({ created_at: t.clock.now() - 100 * 86_400_000 })
      .execute();
    await seedSystemDemo(t.app.ctx);
    await seedMoneyDemo(t.app.ctx, SIZE);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('leaves the ledger invariant true', async () => {
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  it('makes receiving addresses, enabled and disabled, and both payout wallets', async () => {
    const admin = await t.login();
    const accounts = (await t.call('GET', '/v1/admin/deposit/account/list', { token: admin })).data;
    expect(accounts.total).toBe(4);
    expect(new Set(accounts.list.map((a: any) => a.status))).toEqual(new Set([0, 1]));
    expect(new Set(accounts.list.map((a: any) => a.chain))).toEqual(new Set(['TRC20', 'ERC20']));
    for (const type of [1, 2]) {
      const s = (await t.call('GET', '/v1/admin/withdraw/setting', { token: admin, query: { type } })).data;
      expect(s.account.address).toMatch(/^T/);
    }
  });

  it('spreads deposits over three months in every status', async () => {
    const rows = await t.db.db.selectFrom('deposit').select(['status', 'created_at']).execute();
    expect(rows.length).toBeGreaterThan(SIZE.deposits * 0.9);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set([0, 1, 2]));
    const times = rows.map((r) => Number(r.created_at));
    const now = t.clock.now();
    expect(Math.min(...times)).toBeLessThan(now - 60 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(now);
  });

  it('makes withdrawals and extracts in every status, each move with its bills and op-log rows', async () => {
    const rows = await t.db.db.selectFrom('withdrawal').select(['id', 'type', 'status', 'tx_hash']).execute();
    for (const type of [1, 2]) {
      expect(new Set(rows.filter((r) => r.type === type).map((r) => r.status))).toEqual(new Set([0, 1, 2, 3]));
    }
    expect(rows.filter((r) => r.status === 2).every((r) => r.tx_hash)).toBe(true);
    const logs = await t.db.db
      .selectFrom('op_log')
      .select(['permission_code as code'])
      .where('target', 'like', 'withdrawal#%')
      .execute();
    expect(logs.length).toBeGreaterThan(0);
    expect(new Set(logs.map((l) => l.code))).toEqual(
      new Set(['withdraw:audit', 'withdraw:pay', 'extract:audit', 'extract:pay']),
    );
  });

  it('runs after the members demo step (members joining over the months, opening balances)', async () => {
    const real = await build();
    try {
      await seedSystemDemo(real.app.ctx);
      await seedMembersDemo(real.app.ctx, { zones: 3, members: 60, days: 90 });
      await seedMoneyDemo(real.app.ctx, { members: 60, deposits: 150, withdrawals: 60, extracts: 30, days: 90 });
      expect(await ledgerViolations(real.db.db)).toEqual([]);
      const made = await real.db.db.selectFrom('withdrawal').select('status').execute();
      expect(new Set(made.map((w) => w.status)).size).toBeGreaterThanOrEqual(3);
      // Nobody deposits before joining.
      const early = await real.db.db
        .selectFrom('deposit as d')
        .innerJoin('member as m', 'm.id', 'd.member_id')
        .select('d.id')
        .whereRef('d.created_at', '<', 'm.created_at')
        .execute();
      expect(early).toEqual([]);
    } finally {
      await real.close();
    }
  }, 120_000);

  it('does nothing without members', async () => {
    const empty = await build();
    try {
      await seedMoneyDemo(empty.app.ctx, SIZE);
      expect(await empty.db.db.selectFrom('deposit').select('id').execute()).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});
