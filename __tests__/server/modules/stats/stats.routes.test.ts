import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Asset } from '../../../../domain/assets';
import { BillType } from '../../../../domain/bills';
import { formatAsset } from '../../../../domain/money';
import { dayOf } from '../../../../server/db/dayBuckets';
import { applyChange } from '../../../../server/modules/ledger/ledger.service';
import { registerMember } from '../../../../server/modules/members/members.service';
import * as repo from '../../../../server/modules/stats/stats.repository';
import { statDayTable } from '../../../../server/modules/stats/stats.days';
import { seedMallDemo } from '../../../../server/modules/mall/mall.demo';
import { seedMembersDemo } from '../../../../server/modules/members/members.demo';
import { memberCountViolations } from '../../../../server/modules/members/counts.repository';
import { seedPledgeDemo } from '../../../../server/modules/pledge/pledge.demo';
import { seedSeedsDemo } from '../../../../server/modules/seeds/seeds.demo';
import { seedMoneyDemo } from '../../../../server/modules/withdrawals/money.demo';
import { seedMatchesDemo } from '../../../../server/modules/matches/matches.demo';
import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs } from '../system/fixtures';

jest.setTimeout(180_000);

const DAY = 86_400_000;
const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

describe(`statistics and the welcome page (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-stat-'));
  beforeAll(async () => {
    t = await build({ config: { uploadDir } });
    token = await t.login();
    const ctx = t.app.ctx;
    await seedMembersDemo(ctx, { zones: 3, members: 150, days: 40 });
    await seedMoneyDemo(ctx, { members: 60, deposits: 90, withdrawals: 40, extracts: 20, days: 40 });
    await seedSeedsDemo(ctx, { seeds: 30, days: 20 });
    await seedMatchesDemo(ctx);
    await seedPledgeDemo(ctx, { members: 30, pledges: 40, days: 40 });
    await seedMallDemo(ctx, 40, 20);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });
  const stat = (query: Record<string, string>, tk = token) => t.call('GET', '/v1/admin/stat', { token: tk, query });

  /** Asks `stat` for days [from, to] and checks every figure and daily point against the raw rows. */
  async function expectRawFigures(from: number, to: number) {
    const len = to - from + 1;
    const r = await stat({ start: dateOf(from), end: dateOf(to) });
    expect(r.code).toBe(200);
    const d = r.data;
    expect(d.days).toHaveLength(len);
    expect(d.days[0]).toBe(dateOf(from));
    expect(d.days[len - 1]).toBe(dateOf(to));
    const idx = (ms: number) => dayOf(ms) - from;
    const inRange = (ms: number) => idx(ms) >= 0 && idx(ms) < len;

    // The raw rows.
    const members = await t.db.db.selectFrom('member').select(['created_at']).execute();
    const bills = await t.db.db
      .selectFrom('bill')
      .select([
        'type',
        'asset',
        'created_at',
        sql<string>`cast(change as text)`.as('change'),
        sql<string>`cast(frozen_change as text)`.as('frozen'),
      ])
      .execute();
    const orders = await t.db.db
      .selectFrom('mall_order')
      .select(['asset', 'created_at', sql<string>`cast(total as text)`.as('total')])
      .execute();

    const series = (key: string, asset: Asset | null = null) =>
      d.series.find((s: { key: string; asset: string | null }) => s.key === key && s.asset === asset)?.points;
    const figure = (key: string, asset: Asset | null = null) =>
      d.figures.find((f: { key: string; asset: string | null }) => f.key === key && f.asset === asset);

    // New members per day and in all.
    const perDay = new Array<number>(len).fill(0);
    for (const m of members) if (inRange(Number(m.created_at))) perDay[idx(Number(m.created_at))] += 1;
    expect(series('membersNew')).toEqual(perDay.map(String));
    expect(figure('membersNew')).toMatchObject({ count: perDay.reduce((a, b) => a + b, 0) });
    expect(figure('membersTotal')).toMatchObject({ count: members.length });

    // Bill-based series: amount per day from the bills of one type and asset.
    const billSeries = (type: number, asset: Asset, value: (b: { change: string; frozen: string }) => bigint) => {
      const amounts = new Array<bigint>(len).fill(0n);
      let count = 0;
      for (const b of bills)
        if (Number(b.type) === type && b.asset === asset && inRange(Number(b.created_at))) {
          amounts[idx(Number(b.created_at))] += value(b);
          count += 1;
        }
      return {
        points: amounts.map((a) => formatAsset(a, asset)),
        count,
        total: formatAsset(
          amounts.reduce((a, b) => a + b, 0n),
          asset,
        ),
      };
    };
    const checks: Array<[string, number, Asset, (b: { change: string; frozen: string }) => bigint]> = [
      ['deposits', BillType.deposit, 'USDT', (b) => BigInt(b.change)],
      ['withdrawPaid', BillType.withdrawSuccess, 'USDT', (b) => -BigInt(b.frozen)],
      ['extractPaid', BillType.withdrawSuccess, 'LZ', (b) => -BigInt(b.frozen)],
      ['pledgeNew', BillType.pledgeLock, 'LZ', (b) => -BigInt(b.change)],
      ['pledgeIncome', BillType.pledgeIncome, 'LZ', (b) => BigInt(b.change)],
      ['energyReleased', BillType.seedRelease, 'ENERGY', (b) => BigInt(b.change)],
    ];
    for (const [key, type, asset, value] of checks) {
      const want = billSeries(type, asset, value);
      expect([key, series(key, asset)]).toEqual([key, want.points]);
      expect([key, figure(key, asset)]).toEqual([key, { key, count: want.count, amount: want.total, asset }]);
    }

    // Orders and sales per asset, and the order count per day over every asset.
    const orderCount = new Array<number>(len).fill(0);
    const sales = new Map<string, bigint[]>();
    for (const o of orders)
      if (inRange(Number(o.created_at))) {
        orderCount[idx(Number(o.created_at))] += 1;
        if (!sales.has(o.asset)) sales.set(o.asset, new Array<bigint>(len).fill(0n));
        sales.get(o.asset)![idx(Number(o.created_at))] += BigInt(o.total);
      }
    expect(series('orders')).toEqual(orderCount.map(String));
    for (const [asset, amounts] of sales) {
      expect(series('sales', asset as Asset)).toEqual(amounts.map((a) => formatAsset(a, asset as Asset)));
      expect(figure('orders', asset as Asset).amount).toBe(
        formatAsset(
          amounts.reduce((a, b) => a + b, 0n),
          asset as Asset,
        ),
      );
    }

    // The state now, from the rows themselves.
    const pending = async (type: number) => {
      const rows = await t.db.db
        .selectFrom('withdrawal')
        .select(sql<string>`cast(amount as text)`.as('amount'))
        .where('type', '=', type)
        .where('status', '=', 0)
        .execute();
      return { count: rows.length, sum: rows.reduce((a, b) => a + BigInt(b.amount), 0n) };
    };
    const w = await pending(1);
    expect(figure('withdrawPending', 'USDT')).toMatchObject({ count: w.count, amount: formatAsset(w.sum, 'USDT') });
    const e = await pending(2);
    expect(figure('extractPending', 'LZ')).toMatchObject({ count: e.count, amount: formatAsset(e.sum, 'LZ') });
    const deps = await t.db.db
      .selectFrom('deposit')
      .select(sql<string>`cast(amount as text)`.as('amount'))
      .where('status', '=', 0)
      .execute();
    expect(figure('depositsPending', 'USDT')).toMatchObject({
      count: deps.length,
      amount: formatAsset(
        deps.reduce((a, b) => a + BigInt(b.amount), 0n),
        'USDT',
      ),
    });
    const active = await t.db.db
      .selectFrom('pledge')
      .select(sql<string>`cast(amount as text)`.as('amount'))
      .where('status', '=', 1)
      .execute();
    expect(figure('pledgeActive', 'LZ')).toMatchObject({
      count: active.length,
      amount: formatAsset(
        active.reduce((a, b) => a + BigInt(b.amount), 0n),
        'LZ',
      ),
    });
    return d;
  }

  it('answers every figure and every daily point as counted from the raw tables', async () => {
    expect(await memberCountViolations(t.db.db)).toEqual([]);
    const today = dayOf(t.clock.now());
    const d = await expectRawFigures(today - 44, today);
    // The seeded data set puts something in every figure.
    for (const f of d.figures) if (f.key !== 'refunds') expect([f.key, f.count]).not.toEqual([f.key, 0]);
  });

  it('keeps up with facts written into days it has answered before, in the current block and in past ones', async () => {
    const today = dayOf(t.clock.now());
    await expectRawFigures(today - 60, today); // every block of the range is now kept
    const ctx = t.app.ctx;
    const past = t.clock.now() - 50 * DAY; // a block that is over
    const m = await registerMember(ctx, { phone: '13900005001', nickname: '回填会员' }, { now: past });
    await ctx.db.transaction().execute(async (trx) => {
      await applyChange(trx, { memberId: m.id, asset: 'USDT', available: 7_000_000n, type: BillType.deposit }, past);
      await applyChange(
        trx,
        { memberId: m.id, asset: 'USDT', available: 3_000_000n, type: BillType.deposit },
        t.clock.now(),
      );
    });
    await registerMember(ctx, { phone: '13900005002', nickname: '今日会员' });
    await expectRawFigures(today - 60, today);
    // Ranges that start and end inside blocks, over the same days.
    await expectRawFigures(today - 50, today - 3);
    await expectRawFigures(today - 33, today - 33);
  });

  it('defaults to the last 7 days, refuses a bad or too long range with a message naming it', async () => {
    const r = await stat({});
    expect(r.data.days).toHaveLength(7);
    expect(r.data.end).toBe(dateOf(dayOf(t.clock.now())));
    expect(await stat({ start: '2026-02-01', end: '2026-01-01' })).toMatchObject({
      code: 400,
      msg: '开始日期不能晚于结束日期',
    });
    expect(await stat({ start: '2024-01-01', end: '2025-06-01' })).toMatchObject({
      code: 400,
      msg: '统计范围最长 366 天',
    });
    expect(await stat({ start: 'yesterday' })).toMatchObject({ code: 400, msg: '开始日期格式不正确' });
    expect((await stat({ start: '2025-01-01', end: '2025-12-31' })).data.days).toHaveLength(365);
  });

  it('shows the welcome page the waiting counts of the pages the manager may open, and the login before this one', async () => {
    const w = await t.call('GET', '/v1/admin/welcome', { token });
    expect(w.data.username).toBe('admin');
    expect(w.data.waiting.map((x: { key: string }) => x.key)).toEqual([
      'withdraw',
      'extract',
      'deposit',
      'appeal',
      'ship',
    ]);
    const toShip = await t.db.db.selectFrom('mall_order').select('id').where('status', '=', 1).execute();
    expect(w.data.waiting.find((x: { key: string }) => x.key === 'ship').count).toBe(toShip.length);
    const appeals = await t.db.db.selectFrom('match_trade').select('id').where('status', '=', 5).execute();
    expect(w.data.waiting.find((x: { key: string }) => x.key === 'appeal').count).toBe(appeals.length);

    // Only the pages this manager may open; 上次登录 is the login before the current one.
    const clerk = await actingAs(t, 'clerk', ['deposit:view', 'order:view']);
    let c = await t.call('GET', '/v1/admin/welcome', { token: clerk.token });
    expect(c.data.waiting.map((x: { key: string }) => x.key)).toEqual(['deposit', 'ship']);
    expect(c.data.lastLoginAt).toBeNull();
    expect((await stat({}, clerk.token)).code).toBe(403);
    await t.db.db
      .updateTable('manager')
      .set({
        password_hash: (
          await t.db.db
            .selectFrom('manager')
            .select('password_hash')
            .where('username', '=', 'admin')
            .executeTakeFirstOrThrow()
        ).password_hash,
      })
      .where('id', '=', clerk.id)
      .execute();
    const first = t.clock.now();
    await t.login('clerk');
    t.clock.advance(60_000);
    const tk = await t.login('clerk');
    c = await t.call('GET', '/v1/admin/welcome', { token: tk });
    expect(c.data.lastLoginAt).toBe(first);
    expect(c.data.lastLoginIp).toBe('127.0.0.1');
  });

  it('answers while another request evicts the blocks it counted on', async () => {
    const ctx = t.app.ctx;
    const far = 40_000; // blocks far from the data set's: empty, cached like any other
    await statDayTable(ctx, far * 32, (far + 13) * 32 - 1);
    await statDayTable(ctx, (far + 100) * 32, (far + 215) * 32 - 1); // 116 more: the first ones are oldest
    const real = repo.billDays;
    const slow = jest.spyOn(repo, 'billDays').mockImplementation(async (...a: Parameters<typeof real>) => {
      if (a[2] === far * 32) await new Promise((r) => setTimeout(r, 300));
      return real(...a);
    });
    await sql`insert into member_day_stat (day, n) values (${far * 32}, 1)`.execute(ctx.db); // first block stale
    const pending = statDayTable(ctx, far * 32, (far + 13) * 32 - 1);
    await new Promise((r) => setTimeout(r, 50));
    await statDayTable(ctx, (far + 300) * 32, (far + 303) * 32 - 1); // evicts the oldest blocks meanwhile
    const table = await pending;
    slow.mockRestore();
    expect(table.sums.get('membersNew:')?.count).toBe(1);
  });
});
