/**
 * The seed counters: seed_stat, seed_member_stat and seed_release_stat (what each counts is said at its
 * descriptor), the moves a settlement batch's releases make on them (seeds.query.ts countSeedReleases),
 * their rebuild and their check.
 */
import type { Kysely, Transaction } from 'kysely';
import { namedCounterViolations, rebuildCounters } from '../../db/counterAudit';
import type { CounterMoves } from '../../db/counterMoves';
import { counter } from '../../db/counters';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** seed_stat: seeds per (source, status) with their total and released energy. */
export const SEED_STAT = counter({
  table: 'seed_stat',
  source: 'seed',
  keys: ['source', 'status'],
  sums: { total_sum: 'total_energy', released_sum: 'released' },
});

/** seed_member_stat: a member's seeds per (source, status) with total, released and release_n (one release per paid day). */
export const SEED_MEMBER_STAT = counter({
  table: 'seed_member_stat',
  source: 'seed',
  keys: ['member_id', 'source', 'status'],
  sums: { total_sum: 'total_energy', released_sum: 'released', release_n: 'paid_day - start_day' },
});

/** seed_release_stat: releases per Asia/Shanghai day with their energy. */
export const SEED_RELEASE_STAT = counter({
  table: 'seed_release_stat',
  source: 'seed_release',
  keys: ['day'],
  sums: { amount_sum: 'amount' },
});

/** Recounts the seed counters from the seeds and releases (bulk loads that write them directly). */
export const rebuildSeedStats = (db: Db): Promise<void> =>
  rebuildCounters(db, [SEED_STAT, SEED_MEMBER_STAT, SEED_RELEASE_STAT]);

/** Where the seed counters differ from the seeds and releases (all empty when consistent). */
export const seedCounterViolations = (db: Db) =>
  namedCounterViolations(db, { seeds: SEED_STAT, members: SEED_MEMBER_STAT, releases: SEED_RELEASE_STAT });

/** One seed's release of a settlement batch (what the batch wrote for it). */
export interface SeedReleaseCount {
  /** seed.member_id */
  memberId: number;
  /** seed.source (1|2|3). */
  source: number;
  /** The released day (Asia/Shanghai day number). */
  day: number;
  /** ENERGY minor units released that day. */
  amount: bigint;
  /** seed.total_energy. */
  totalEnergy: bigint;
  /** seed.days (the releases of a matured seed). */
  days: number;
  /** This release was the end day: the batch moved the seed from status 1 to 2. */
  matured: boolean;
}

/**
 * Queues the counter moves of a batch of releases on `counts`: per seed its released energy grows in
 * (source, 1) — a matured seed moves to (source, 2) with its whole total (released = total once
 * matured) — in seed_stat and, with one more release, in the member's seed_member_stat; per day the
 * release is counted in seed_release_stat. Merged per key by CounterMoves.
 */
export function queueSeedReleaseCounts(db: Db, counts: CounterMoves, rows: readonly SeedReleaseCount[]): void {
  for (const r of rows) {
    const growing = { source: r.source, status: 1 };
    const mine = { member_id: r.memberId, ...growing };
    counts.move(db, SEED_STAT, null, growing, { total_sum: 0n, released_sum: r.amount }, 0n);
    counts.move(db, SEED_MEMBER_STAT, null, mine, { total_sum: 0n, released_sum: r.amount, release_n: 1n }, 0n);
    if (r.matured) {
      const whole = { total_sum: r.totalEnergy, released_sum: r.totalEnergy };
      counts.move(db, SEED_STAT, growing, { source: r.source, status: 2 }, whole);
      counts.move(db, SEED_MEMBER_STAT, mine, { ...mine, status: 2 }, { ...whole, release_n: BigInt(r.days) });
    }
    counts.move(db, SEED_RELEASE_STAT, null, { day: r.day }, { amount_sum: r.amount });
  }
}
