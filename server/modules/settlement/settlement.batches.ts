/**
 * Paying records (settlement.service.ts says why it is exactly once): a batch of pledges or seeds read,
 * their owed releases worked out, and written in one transaction — the lease renewed with the batch's
 * totals, the release rows, the records moved from the paid day the batch read, the ledger credits and
 * the counters.
 */
import type { Kysely, Transaction } from 'kysely';
import { BillType } from '../../../domain/bills';
import type { Ctx } from '../../context';
import { asyncCommit } from '../../db/bulk';
import { countedTransaction, type CounterMoves } from '../../db/counterMoves';
import { dateOfDay } from '../../db/dayBuckets';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';
import { applyCredits, type LedgerCredit } from '../ledger/ledger.service';
import { countReleases, type PledgeReleaseCount } from '../pledge/pledge.query';
import { countSeedReleases, type SeedReleaseCount } from '../seeds/seeds.query';
import { renewLease, type LeaseTotals } from './settlement.lease';
import { insertReleases, moveRecords, owed, type RecordMove, type Release } from './settlement.releases';

type Db = Kysely<Database> | Transaction<Database>;

/** Records per transaction, and how long the lease lasts without renewal (ms). */
export interface BatchOptions {
  batchSize: number;
  leaseMs: number;
}

/** A batch's transaction: counted (counters written once, at its end), committed asynchronously on PostgreSQL. */
function batchTransaction<T>(
  ctx: Ctx,
  work: (trx: Transaction<Database>, counts: CounterMoves, now: number) => Promise<T>,
): Promise<T> {
  return countedTransaction(ctx.db, async (trx, counts) => {
    await asyncCommit(trx);
    return work(trx, counts, ctx.clock.now());
  });
}

/**
 * A batch's writes, in the order that keeps it exactly once: the lease renewed with the batch's totals
 * (which also holds the run's row), the release rows (UNIQUE record+day), the records moved only from
 * the paid day the batch read, then the ledger credits.
 */
async function writeBatch(
  trx: Db,
  table: 'pledge' | 'seed',
  lease: { day: number; owner: string; until: number; totals: LeaseTotals },
  batch: { releases: Release[]; moves: RecordMove[]; credits: LedgerCredit[] },
  now: number,
): Promise<void> {
  await renewLease(trx, lease.day, lease.owner, lease.until, lease.totals);
  await insertReleases(trx, table, batch.releases, now);
  await moveRecords(trx, table, batch.moves, now);
  await applyCredits(trx, batch.credits, now);
}

/** Pays the next batch of active pledges owed up to `day`, in one transaction; answers how many it moved. */
export async function pledgeBatch(ctx: Ctx, day: number, owner: string, opts: BatchOptions): Promise<number> {
  return batchTransaction(ctx, async (trx, counts, now) => {
    const rows = await trx
      .selectFrom('pledge')
      .select([
        'id',
        'member_id',
        'mode_id',
        money('amount').as('amount'),
        money('released').as('released'),
        money('daily_yield').as('daily_yield'),
        money('total_yield').as('total_yield'),
        'days',
        'start_day',
        'end_day',
        'paid_day',
      ])
      .where('status', '=', 1)
      .where('paid_day', '<', day)
      .orderBy('paid_day')
      .orderBy('id')
      .limit(opts.batchSize)
      .execute();
    if (rows.length === 0) return 0;
    const releases: Release[] = [];
    const moves: RecordMove[] = [];
    const counted: PledgeReleaseCount[] = [];
    for (const row of rows) {
      const amount = BigInt(row.amount);
      const endDay = Number(row.end_day);
      const o = owed(
        {
          id: Number(row.id),
          memberId: Number(row.member_id),
          daily: BigInt(row.daily_yield),
          total: BigInt(row.total_yield),
          days: Number(row.days),
          startDay: Number(row.start_day),
          endDay,
          paidDay: Number(row.paid_day),
        },
        day,
        amount,
      );
      releases.push(...o.releases);
      moves.push(o.move);
      let released = BigInt(row.released);
      for (const r of o.releases) {
        released += r.amount;
        counted.push({
          memberId: Number(row.member_id),
          modeId: Number(row.mode_id),
          day: r.day,
          amount: r.amount,
          principal: r.principal,
          pledgeAmount: amount,
          released,
          days: Number(row.days),
          finished: r.day === endDay,
        });
      }
    }
    let yieldSum = 0n;
    let principalSum = 0n;
    const credits: LedgerCredit[] = [];
    for (const r of releases) {
      yieldSum += r.amount;
      principalSum += r.principal;
      const ref = { kind: 'pledge', id: r.recordId };
      if (r.amount > 0n)
        credits.push({
          memberId: r.memberId,
          asset: 'LZ',
          amount: r.amount,
          type: BillType.pledgeIncome,
          ref,
          remark: dateOfDay(r.day),
        });
      if (r.principal > 0n)
        credits.push({
          memberId: r.memberId,
          asset: 'LZ',
          amount: r.principal,
          type: BillType.pledgeRedeem,
          ref,
          remark: dateOfDay(r.day),
        });
    }
    const totals = { pledges: BigInt(moves.length), pledge_yield: yieldSum, pledge_principal: principalSum };
    await writeBatch(
      trx,
      'pledge',
      { day, owner, until: now + opts.leaseMs, totals },
      { releases, moves, credits },
      now,
    );
    // pledge_stat and pledge_release_stat, queued on the transaction's moves (applied last).
    await countReleases(trx, counted, counts);
    return moves.length;
  });
}

/** Pays the next batch of growing seeds owed up to `day`, in one transaction; answers how many it moved. */
export async function seedBatch(ctx: Ctx, day: number, owner: string, opts: BatchOptions): Promise<number> {
  return batchTransaction(ctx, async (trx, counts, now) => {
    const rows = await trx
      .selectFrom('seed')
      .select([
        'id',
        'member_id',
        'source',
        money('total_energy').as('total_energy'),
        money('daily_energy').as('daily_energy'),
        'days',
        'start_day',
        'end_day',
        'paid_day',
      ])
      .where('status', '=', 1)
      .where('paid_day', '<', day)
      .orderBy('paid_day')
      .orderBy('id')
      .limit(opts.batchSize)
      .execute();
    if (rows.length === 0) return 0;
    const releases: Release[] = [];
    const moves: RecordMove[] = [];
    const counted: SeedReleaseCount[] = [];
    for (const row of rows) {
      const total = BigInt(row.total_energy);
      const endDay = Number(row.end_day);
      const o = owed(
        {
          id: Number(row.id),
          memberId: Number(row.member_id),
          daily: BigInt(row.daily_energy),
          total,
          days: Number(row.days),
          startDay: Number(row.start_day),
          endDay,
          paidDay: Number(row.paid_day),
        },
        day,
        0n,
      );
      releases.push(...o.releases);
      moves.push(o.move);
      for (const r of o.releases) {
        counted.push({
          memberId: Number(row.member_id),
          source: Number(row.source),
          day: r.day,
          amount: r.amount,
          totalEnergy: total,
          days: Number(row.days),
          matured: r.day === endDay,
        });
      }
    }
    let energy = 0n;
    const credits: LedgerCredit[] = [];
    for (const r of releases) {
      energy += r.amount;
      if (r.amount > 0n)
        credits.push({
          memberId: r.memberId,
          asset: 'ENERGY',
          amount: r.amount,
          type: BillType.seedRelease,
          ref: { kind: 'seed', id: r.recordId },
          remark: dateOfDay(r.day),
        });
    }
    const totals = { seeds: BigInt(moves.length), seed_energy: energy };
    await writeBatch(trx, 'seed', { day, owner, until: now + opts.leaseMs, totals }, { releases, moves, credits }, now);
    // seed_stat, seed_member_stat and seed_release_stat, queued on the transaction's moves (applied last).
    await countSeedReleases(trx, counted, counts);
    return moves.length;
  });
}
