/**
 * A member's lists read their exact total and sums from the per-member counters (pledge_member_stat,
 * seed_member_stat, match_seller_stat / match_buyer_stat) instead of summing the member's rows: checked
 * here against the rows themselves (the same filter with a date range, which is counted row by row)
 * while pledges and seeds are part paid, finished or matured by the settlement job, and matches move.
 */
import { dayOf, dayStart } from '../../../../server/db/dayBuckets';
import type { Ctx } from '../../../../server/context';
import { findMatches } from '../../../../server/modules/matches/matches.repository';
import { confirmReceipt, markPaid, openMatch } from '../../../../server/modules/matches/matches.service';
import { findPledges, findReleases } from '../../../../server/modules/pledge/pledge.repository';
import { findSeedReleases, findSeeds } from '../../../../server/modules/seeds/seeds.repository';
import { addPaymentMethod, paymentOpt } from '../../../../server/modules/payments/payments.service';
import { settleDay } from '../../../../server/modules/settlement/settlement.service';
import { build, type TestApp } from '../../helpers';
import { adminId } from '../system/fixtures';
import { addMode, addPledge, addSeed, expectConsistent, richMember } from './fixtures';

const page = { offset: 0, limit: 5, order: 'desc' as const };
/** A date range that holds every row: the filter is then counted over the rows, not read from a counter. */
const ALL = { start: 0, end: Number.MAX_SAFE_INTEGER };
const ALL_DAYS = { fromDay: 0, toDay: 10_000_000 };

let t: TestApp;
let ctx: Ctx;
beforeAll(async () => {
  t = await build();
  ctx = t.app.ctx;
});
afterAll(() => t.close());

const totals = (r: { total: number } & Record<string, unknown>) =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k === 'total' || k.startsWith('sum')));

it('pledges, releases, seeds and matches of one or a few members: the counters equal the rows', async () => {
  const S = dayOf(Date.UTC(2027, 5, 1));
  t.clock.set(dayStart(S) + 600_000);
  const [a, b, c] = [await richMember(ctx), await richMember(ctx), await richMember(ctx)];
  const short = await addMode(ctx, 2, '0.012345');
  const long = await addMode(ctx, 9, '0.003333');
  for (const [m, mode, amount] of [
    [a, short, '1234.5677'],
    [a, long, '99.9999'],
    [a, long, '0.0003'],
    [b, short, '7'],
    [c, long, '500'],
  ] as const)
    await addPledge(ctx, m, mode, amount, t.clock.now());
  await addSeed(ctx, a, '10.01', 2, t.clock.now(), 1);
  await addSeed(ctx, a, '123.45', 7, t.clock.now(), 2);
  await addSeed(ctx, b, '0.07', 9, t.clock.now(), 3);
  // A seller needs an approved payment method.
  for (const m of [a, b]) {
    const p = await addPaymentMethod(ctx, {
      memberId: m,
      type: 2,
      holder: '王芳',
      account: `138${m}`,
      qrUrl: '/uploads/qr.png',
    });
    await paymentOpt(
      ctx,
      { managerId: await adminId(t), username: 'admin', ip: '127.0.0.1' },
      { id: p.id, action: 'approve' },
    );
  }
  const match = (sellerId: number, buyerId: number, quantity: bigint) =>
    openMatch(ctx, { sellerId, buyerId, quantity, unitPrice: 500_000n });
  const paid = await match(a, b, 125_000n);
  await match(b, a, 32_500n);
  const done = await match(a, c, 10_000n);
  await markPaid(ctx, { matchId: paid.id, buyerId: b, proofUrl: '/uploads/p.png' });
  await markPaid(ctx, { matchId: done.id, buyerId: c, proofUrl: '/uploads/p.png' });
  await confirmReceipt(ctx, { matchId: done.id, sellerId: a });

  const check = async () => {
    await expectConsistent(ctx.db);
    for (const members of [[a], [b], [a, c], [999_999]]) {
      for (const f of [{}, { status: 1 }, { status: 2 }, { modeId: long }, { modeId: short, status: 2 }])
        expect(totals(await findPledges(ctx.db, { members, ...f }, page))).toEqual(
          totals(await findPledges(ctx.db, { members, ...f, ...ALL }, page)),
        );
      expect(totals(await findReleases(ctx.db, { members }, page))).toEqual(
        totals(await findReleases(ctx.db, { members, ...ALL_DAYS }, page)),
      );
      for (const f of [{}, { status: 2 }, { source: 2 }])
        expect(totals(await findSeeds(ctx.db, { members, ...f }, page))).toEqual(
          totals(await findSeeds(ctx.db, { members, ...f, ...ALL }, page)),
        );
      expect(totals(await findSeedReleases(ctx.db, { members }, page))).toEqual(
        totals(await findSeedReleases(ctx.db, { members, ...ALL_DAYS }, page)),
      );
      for (const f of [
        { sellers: members },
        { buyers: members },
        { sellers: members, status: 3 },
        { buyers: members, status: 2 },
      ])
        expect(totals(await findMatches(ctx.db, f, page))).toEqual(
          totals(await findMatches(ctx.db, { ...f, ...ALL }, page)),
        );
    }
  };
  await check();
  // Day by day: the two-day pledges and seed finish on day S+2, the others keep growing.
  for (let d = S + 1; d <= S + 3; d++) {
    t.clock.set(dayStart(d + 1) + 600_000);
    expect((await settleDay(ctx, d)).outcome).toBe('done');
    await check();
  }
  const aPledges = await findPledges(ctx.db, { members: [a] }, page);
  expect(aPledges.total).toBe(3);
  // a's releases: the short pledge twice (then finished, principal back), the long ones three times each.
  const aReleases = await findReleases(ctx.db, { members: [a] }, page);
  expect(aReleases.total).toBe(2 + 3 + 3);
  expect(aReleases.sumPrincipal).toBe('12345677');
});
