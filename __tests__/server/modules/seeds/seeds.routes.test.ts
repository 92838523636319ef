import { sql } from 'kysely';
import { BillType } from '../../../../domain/bills';
import { dayOf } from '../../../../server/db/dayBuckets';
import { applyChange, balancesOf, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import {
  countSeedReleases,
  seedCounterViolations,
  type SeedReleaseCount,
} from '../../../../server/modules/seeds/seeds.query';
import { grantSeed } from '../../../../server/modules/seeds/seeds.service';
import { settleDay } from '../../../../server/modules/settlement/settlement.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember } from '../deposits/fixtures';
import { actingAs } from '../system/fixtures';

const DAY = 86_400_000;

/**
 * What the settlement job does for the seeds of one day, written here so the lists have releases to
 * show: a release row, the seed's progress, bill 10 种子释放 and the counters (countSeedReleases), in
 * one transaction.
 */
async function releaseDay(t: TestApp, day: number) {
  const now = t.clock.now();
  await t.db.db.transaction().execute(async (trx) => {
    const seeds = await trx
      .selectFrom('seed')
      .select(['id', 'member_id', 'source', 'days', 'start_day', 'end_day', 'paid_day'])
      .select((eb) => eb.cast<string>('total_energy', 'text').as('total'))
      .where('status', '=', 1)
      .where('start_day', '<', day)
      .where('paid_day', '<', day)
      .orderBy('id')
      .execute();
    const counted: SeedReleaseCount[] = [];
    for (const s of seeds) {
      const total = BigInt(s.total);
      // model.md: floor(total / days) a day, the rest on the end day.
      const daily = total / BigInt(s.days);
      const matured = day >= s.end_day;
      const amount = matured ? total - daily * BigInt(s.days - 1) : daily;
      await trx
        .insertInto('seed_release')
        .values({ seed_id: s.id, member_id: s.member_id, day, amount, created_at: now })
        .execute();
      await trx
        .updateTable('seed')
        .set({
          released: sql`released + ${amount}`,
          paid_day: day,
          ...(matured ? { status: 2, finished_at: now } : {}),
        })
        .where('id', '=', s.id)
        .execute();
      if (amount > 0n) {
        await applyChange(
          trx,
          {
            memberId: Number(s.member_id),
            asset: 'ENERGY',
            available: amount,
            type: BillType.seedRelease,
            ref: { kind: 'seed', id: Number(s.id) },
          },
          now,
        );
      }
      counted.push({
        memberId: Number(s.member_id),
        source: s.source,
        day,
        amount,
        totalEnergy: total,
        days: s.days,
        matured,
      });
    }
    await countSeedReleases(trx, counted);
  });
}

describe(`seeds (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let a: number;
  let b: number;
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/seed/list', { token: tk, query });
  const releases = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/seed/release/list', { token: tk, query });
  const uidOf = async (id: number) =>
    (await t.db.db.selectFrom('member').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid;

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    a = await addMember(t);
    b = await addMember(t);
  });
  afterEach(() => t.close());

  it('grants seeds growing from today, with daily = floor(total / days), counted per source and status', async () => {
    const today = dayOf(t.clock.now());
    const s1 = await grantSeed(t.app.ctx, {
      memberId: a,
      name: '红杉种子',
      source: 1,
      refId: 77,
      totalEnergy: 1000n,
      days: 3,
    });
    await grantSeed(t.app.ctx, { memberId: b, name: '松柏种子', source: 2, totalEnergy: 12345n, days: 7 });
    const row = await t.db.db.selectFrom('seed').selectAll().where('id', '=', s1.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ start_day: today, end_day: today + 3, paid_day: today, status: 1, source: 1 });
    expect(String(row.daily_energy)).toBe('333');
    const r = await list();
    expect(r.data).toMatchObject({ total: 2, sum: { totalEnergy: '133.45', released: '0', count: 2 }, lastRun: null });
    expect(r.data.list[1]).toMatchObject({
      id: s1.id,
      memberId: a,
      name: '红杉种子',
      source: 1,
      refId: 77,
      totalEnergy: '10',
      dailyEnergy: '3.33',
      released: '0',
      days: 3,
      status: 1,
      finishedAt: null,
    });
    expect(r.data.list[1].endDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [input, msg] of [
      [{ name: ' ' }, '种子名称不能为空'],
      [{ name: '种'.repeat(41) }, '种子名称最多40个字'],
      [{ source: 4 }, '种子来源不正确'],
      [{ totalEnergy: 0n }, '种子总能量必须大于0'],
      [{ days: 0 }, '种子周期必须为1到3650天'],
      [{ days: 3651 }, '种子周期必须为1到3650天'],
      [{ memberId: 999999 }, '会员不存在'],
    ] as const) {
      await expect(
        grantSeed(
          t.app.ctx,
          Object.assign({ memberId: a, name: '种子', source: 3, totalEnergy: 100n, days: 10 }, input),
        ),
      ).rejects.toThrow(msg);
    }
    expect((await list()).data.total).toBe(2);
    expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
  });

  it('filters by member, source, status and range; refuses bad input and callers without seed:view', async () => {
    // Seed i is granted on day i and releases on days i+1 and i+2: seeds 0..4 mature, seed 5 grows.
    for (let i = 0; i < 6; i++) {
      await grantSeed(t.app.ctx, {
        memberId: i % 2 ? b : a,
        name: `种子${i}`,
        source: (i % 3) + 1,
        totalEnergy: 100n,
        days: 2,
      });
      t.clock.advance(DAY);
      await releaseDay(t, dayOf(t.clock.now()));
    }
    token = await t.login(); // the session went idle while the days passed
    const uidA = await uidOf(a);
    expect((await list({ keyword: uidA })).data.total).toBe(3);
    expect((await list({ memberId: b })).data.list.map((r: any) => r.memberId)).toEqual([b, b, b]);
    expect((await list({ memberId: b, keyword: uidA })).data.total).toBe(0);
    expect((await list({ source: 2 })).data.list.map((r: any) => r.name)).toEqual(['种子4', '种子1']);
    const growing = await list({ status: 1 });
    const mature = await list({ status: 2 });
    expect([growing.data.total, mature.data.total]).toEqual([1, 5]);
    expect(growing.data.sum).toEqual({ totalEnergy: '1', released: '0.5', count: 1 });
    expect(mature.data.list.every((r: any) => r.released === r.totalEnergy)).toBe(true);
    const start = String(t.clock.now() - 2 * DAY);
    expect((await list({ start })).data.total).toBe(2);
    expect(await list({ source: 9 })).toMatchObject({ code: 400, msg: '来源取值无效' });
    expect(await list({ status: 0 })).toMatchObject({ code: 400, msg: '状态取值无效' });
    expect(await list({ start: 'x' })).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
    expect(await releases({ seedId: 0 })).toMatchObject({ code: 400, msg: '种子ID不能小于1' });
    const other = await actingAs(t, 'nobody', ['bill:view']);
    expect(await list({}, other.token)).toMatchObject({ code: 403 });
    expect(await releases({}, other.token)).toMatchObject({ code: 403 });
    expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  it('releases sum to each seed’s total exactly; the release list filters by seed, member and day, totals exact', async () => {
    const odd = await grantSeed(t.app.ctx, { memberId: a, name: '奇数', source: 3, totalEnergy: 1001n, days: 7 });
    const one = await grantSeed(t.app.ctx, { memberId: b, name: '一天', source: 1, totalEnergy: 5n, days: 1 });
    const small = await grantSeed(t.app.ctx, { memberId: b, name: '少量', source: 2, totalEnergy: 3n, days: 5 });
    const first = dayOf(t.clock.now()) + 1;
    for (let d = first; d < first + 8; d++) {
      t.clock.advance(DAY);
      await releaseDay(t, d);
      expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
    }
    token = await t.login();
    const seeds = await list();
    expect(seeds.data.list.map((r: any) => [r.id, r.status, r.released, r.totalEnergy])).toEqual([
      [small.id, 2, '0.03', '0.03'],
      [one.id, 2, '0.05', '0.05'],
      [odd.id, 2, '10.01', '10.01'],
    ]);
    expect(seeds.data.sum).toEqual({ totalEnergy: '10.09', released: '10.09', count: 3 });
    const byOdd = await releases({ seedId: odd.id, size: 100 });
    expect(byOdd.data.total).toBe(7);
    expect(byOdd.data.list.map((r: any) => r.amount)).toEqual(['1.43', '1.43', '1.43', '1.43', '1.43', '1.43', '1.43']);
    expect(byOdd.data.sum).toEqual({ amount: '10.01', count: 7 });
    const all = await releases({ size: 100 });
    expect(all.data.total).toBe(7 + 1 + 5);
    expect(all.data.sum.amount).toBe('10.09');
    const days = all.data.list.map((r: any) => r.day);
    expect([...days].sort().reverse()).toEqual(days);
    const ofB = await releases({ memberId: b });
    expect(ofB.data).toMatchObject({ total: 6, sum: { amount: '0.08', count: 6 } });
    const day2 = all.data.list.find((r: any) => r.seedId === small.id).day;
    const oneDay = await releases({ start: day2, end: day2 });
    expect(oneDay.data.list.every((r: any) => r.day === day2)).toBe(true);
    expect(oneDay.data.total).toBe(oneDay.data.list.length);
    expect((await balancesOf(t.db.db, a)).ENERGY.available).toBe(1001n);
    expect((await balancesOf(t.db.db, b)).ENERGY.available).toBe(8n);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  it('is paid by the settlement job (countSeedReleases keeps the counters), and shows its last run', async () => {
    const odd = await grantSeed(t.app.ctx, { memberId: a, name: '奇数', source: 1, totalEnergy: 1001n, days: 7 });
    const long = await grantSeed(t.app.ctx, { memberId: b, name: '长期', source: 2, totalEnergy: 100n, days: 30 });
    const first = dayOf(t.clock.now()) + 1;
    t.clock.advance(9 * DAY);
    for (let d = first; d < first + 8; d++) {
      await settleDay(t.app.ctx, d, { owner: 'test' });
      expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
    }
    token = await t.login();
    const r = await list();
    expect(r.data.list.map((x: any) => [x.id, x.status, x.released])).toEqual([
      [long.id, 1, '0.24'],
      [odd.id, 2, '10.01'],
    ]);
    expect(r.data.sum).toEqual({ totalEnergy: '11.01', released: '10.25', count: 2 });
    expect(r.data.lastRun).toMatchObject({ status: 2, seeds: 1, seedEnergy: '0.03' });
    expect((await releases({ seedId: odd.id })).data.sum).toEqual({ amount: '10.01', count: 7 });
    expect((await releases({})).data.total).toBe(15);
    expect((await balancesOf(t.db.db, a)).ENERGY.available).toBe(1001n);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  it('pages seeds and releases by cursor exactly as by page number', async () => {
    for (let i = 0; i < 23; i++) {
      await grantSeed(t.app.ctx, {
        memberId: i % 3 ? a : b,
        name: `种子${i}`,
        source: (i % 3) + 1,
        totalEnergy: 700n,
        days: 4,
      });
    }
    for (let d = 1; d <= 2; d++) {
      t.clock.advance(DAY);
      await releaseDay(t, dayOf(t.clock.now()));
    }
    token = await t.login();
    const uidA = await uidOf(a);
    for (const q of [{}, { order: 'asc' }, { source: 2 }, { keyword: uidA }, { status: 1 }] as Array<
      Record<string, unknown>
    >) {
      await expectCursorPagingMatchesOffset(list, q, 5);
    }
    for (const q of [{}, { order: 'asc' }, { memberId: a }, { keyword: uidA }] as Array<Record<string, unknown>>) {
      await expectCursorPagingMatchesOffset(releases, q, 7);
    }
    const seedId = (await list({ size: 1 })).data.list[0].id;
    expect((await releases({ seedId })).data.total).toBe(2);
    expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });
});
