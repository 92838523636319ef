/**
 * Settlement fixtures: members with LZ, pledge modes, pledges and seeds made through the pledge and
 * seeds modules' own services (never inserted by hand), and the snapshot a test compares before and
 * after a run.
 */
import { sql } from 'kysely';
import { parseAsset } from '../../../../domain/money';
import type { Ctx } from '../../../../server/context';
import { billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { createMode, pledge } from '../../../../server/modules/pledge/pledge.service';
import { pledgeCounterViolations } from '../../../../server/modules/pledge/pledge.query';
import { seedCounterViolations } from '../../../../server/modules/seeds/seeds.query';
import { grantSeed } from '../../../../server/modules/seeds/seeds.service';
import type { TestApp } from '../../helpers';
import { addMember, credit } from '../deposits/fixtures';

/** The fixtures need a database handle and a clock (a test app or a bare ctx of a spawned-process test). */
export const asTestApp = (ctx: Pick<Ctx, 'db' | 'clock'>) =>
  ({ db: { db: ctx.db }, clock: ctx.clock }) as unknown as TestApp;

export const lz = (text: string) => {
  const v = parseAsset(text, 'LZ');
  if (!v.ok) throw new Error(`bad LZ ${text}`);
  return v.value;
};
export const energy = (text: string) => {
  const v = parseAsset(text, 'ENERGY');
  if (!v.ok) throw new Error(`bad ENERGY ${text}`);
  return v.value;
};

let modeSeq = 0;

/** An enabled pledge mode: `rate` is the decimal daily rate ("0.012345"), amounts in LZ. */
export async function addMode(ctx: Ctx, days: number, rate: string): Promise<number> {
  modeSeq += 1;
  const r = await createMode(ctx, {
    name: `测试模式${process.pid % 1000}-${modeSeq}`,
    days,
    rate,
    minAmount: '0.0001',
    maxAmount: '1000000',
    status: 1,
    sort: modeSeq,
  });
  return r.id;
}

/** A member holding `amount` LZ, ready to pledge. */
export async function richMember(ctx: Ctx, amount = '100000'): Promise<number> {
  const t = asTestApp(ctx);
  const id = await addMember(t);
  if (amount !== '0') await credit(t, id, 'LZ', amount);
  return id;
}

/** A pledge made through the member-side service at `now` (its start day is dayOf(now)). */
export async function addPledge(ctx: Ctx, memberId: number, modeId: number, amount: string, now: number) {
  const r = await pledge(ctx, { memberId, modeId, amount: lz(amount) }, now);
  return r.id;
}

/** A seed granted through the seeds service at `now`. */
export async function addSeed(ctx: Ctx, memberId: number, total: string, days: number, now: number, source = 2) {
  const r = await grantSeed(ctx, { memberId, name: '测试种子', source, totalEnergy: energy(total), days }, now);
  return r.id;
}

/** Every consistency check the job must keep: ledger, bill stats, pledge and seed counters. */
export async function expectConsistent(db: Ctx['db']) {
  expect(await ledgerViolations(db)).toEqual([]);
  expect(await billStatViolations(db)).toEqual([]);
  expect(await pledgeCounterViolations(db)).toEqual({ pledges: [], members: [], releases: [] });
  expect(await seedCounterViolations(db)).toEqual({ seeds: [], members: [], releases: [] });
}

/** What a run changes: row counts, sums and every balance, to compare before and after. */
export async function snapshot(db: Ctx['db']) {
  const one = async (q: ReturnType<typeof sql>) => (await q.execute(db)).rows[0];
  return {
    bills: await one(sql`select count(*) as n, cast(coalesce(sum(change), 0) as text) as s from bill`),
    pledgeReleases: await one(
      sql`select count(*) as n, cast(coalesce(sum(amount), 0) as text) as a, cast(coalesce(sum(principal), 0) as text) as p from pledge_release`,
    ),
    seedReleases: await one(sql`select count(*) as n, cast(coalesce(sum(amount), 0) as text) as a from seed_release`),
    pledges: (
      await sql`select id, paid_day, cast(released as text) as released, status from pledge order by id`.execute(db)
    ).rows,
    seeds: (
      await sql`select id, paid_day, cast(released as text) as released, status from seed order by id`.execute(db)
    ).rows,
    accounts: (
      await sql`select member_id, asset, cast(available as text) as a, cast(frozen as text) as f from account order by member_id, asset`.execute(
        db,
      )
    ).rows,
  };
}
