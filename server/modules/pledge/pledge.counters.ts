/**
 * The pledge counters: pledge_stat, pledge_member_stat and pledge_release_stat (what each counts is said
 * at its descriptor), the moves a settlement batch's releases make on them, their rebuild and their check.
 */
import type { Kysely, Transaction } from 'kysely';
import { namedCounterViolations, rebuildCounters } from '../../db/counterAudit';
import type { CounterMoves } from '../../db/counterMoves';
import { counter } from '../../db/counters';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** pledge_stat: pledges per (mode_id, status) with their amount and released sums. */
export const PLEDGE_STAT = counter({
  table: 'pledge_stat',
  source: 'pledge',
  keys: ['mode_id', 'status'],
  sums: { amount_sum: 'amount', released_sum: 'released' },
});

/**
 * pledge_member_stat: a member's pledges per (mode_id, status) with amount, released and release_n (their
 * releases: one per paid day). A member's pledge list reads its total and sums here, and so does that
 * member's release list (count = release_n, yield = released, principal = amount of the finished ones).
 */
export const PLEDGE_MEMBER_STAT = counter({
  table: 'pledge_member_stat',
  source: 'pledge',
  keys: ['member_id', 'mode_id', 'status'],
  sums: { amount_sum: 'amount', released_sum: 'released', release_n: 'paid_day - start_day' },
});

/** pledge_release_stat: releases per Asia/Shanghai day with their yield and principal sums. */
export const PLEDGE_RELEASE_STAT = counter({
  table: 'pledge_release_stat',
  source: 'pledge_release',
  keys: ['day'],
  sums: { amount_sum: 'amount', principal_sum: 'principal' },
});

/** One pledge's release of a settlement batch (what the batch wrote for it). */
export interface PledgeReleaseCount {
  /** pledge.member_id */
  memberId: number;
  /** pledge.mode_id */
  modeId: number;
  /** The released day (Asia/Shanghai day number). */
  day: number;
  /** LZ minor units of yield released that day (bill 8). */
  amount: bigint;
  /** LZ minor units of principal returned that day (bill 9): the pledge's amount on its end day, else 0. */
  principal: bigint;
  /** pledge.amount */
  pledgeAmount: bigint;
  /** pledge.released after this release. */
  released: bigint;
  /** pledge.days (the releases of a finished pledge). */
  days: number;
  /** This release was the end day: the batch moved the pledge from status 1 to 2. */
  finished: boolean;
}

/**
 * Queues the counter moves of a batch of releases on `counts`: per pledge its released sum grows in
 * (mode, 1) — a finished pledge moves to (mode, 2) with its amount and whole released — in pledge_stat
 * and, with one more release, in the member's pledge_member_stat; per day the release is counted in
 * pledge_release_stat. Merged per key by CounterMoves.
 */
export function queueReleaseCounts(db: Db, counts: CounterMoves, rows: readonly PledgeReleaseCount[]): void {
  for (const r of rows) {
    const active = { mode_id: r.modeId, status: 1 };
    const mine = { member_id: r.memberId, ...active };
    // The yield adds to the released sum where the pledge is counted (no row moves: count 0).
    counts.move(db, PLEDGE_STAT, null, active, { amount_sum: 0n, released_sum: r.amount }, 0n);
    counts.move(db, PLEDGE_MEMBER_STAT, null, mine, { amount_sum: 0n, released_sum: r.amount, release_n: 1n }, 0n);
    if (r.finished) {
      const whole = { amount_sum: r.pledgeAmount, released_sum: r.released };
      counts.move(db, PLEDGE_STAT, active, { mode_id: r.modeId, status: 2 }, whole);
      counts.move(db, PLEDGE_MEMBER_STAT, mine, { ...mine, status: 2 }, { ...whole, release_n: BigInt(r.days) });
    }
    counts.move(db, PLEDGE_RELEASE_STAT, null, { day: r.day }, { amount_sum: r.amount, principal_sum: r.principal });
  }
}

export const rebuildPledgeStats = (db: Db): Promise<void> =>
  rebuildCounters(db, [PLEDGE_STAT, PLEDGE_MEMBER_STAT, PLEDGE_RELEASE_STAT]);

export const pledgeCounterViolations = (db: Db) =>
  namedCounterViolations(db, { pledges: PLEDGE_STAT, members: PLEDGE_MEMBER_STAT, releases: PLEDGE_RELEASE_STAT });
