/**
 * All SQL on seeds and their releases. Plain functions taking `db` or `trx` first. Built for
 * 1,000,000 seeds and 10,000,000 releases: pages by keyset at any depth; the total and sums of a
 * source/status filter come from seed_stat, a member's from seed_member_stat, those of a day range of
 * releases from seed_release_stat (all moved in the writing transaction); a seed's releases are few
 * and counted directly.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { money, moneySum } from '../../db/sql';
import { memberIdIn, readPageWithMembers, type KeywordMembers } from '../members/members.query';

type Db = Kysely<Database> | Transaction<Database>;

// ---- seeds ----

export interface SeedFilter {
  members?: KeywordMembers;
  source?: number;
  status?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: SeedFilter) {
  let q = db.selectFrom('seed as s');
  if (f.members) q = q.where(memberIdIn(db, 's.member_id', f.members));
  if (f.source !== undefined) q = q.where('s.source', '=', f.source);
  if (f.status !== undefined) q = q.where('s.status', '=', f.status);
  if (f.start !== undefined) q = q.where('s.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('s.created_at', '<=', f.end);
  return q;
}

/**
 * Without a date range the counters answer the count and sums: seed_stat for a source and a status,
 * seed_member_stat for the members of a keyword (ids) with them.
 */
async function countAndSum(db: Db, f: SeedFilter) {
  if (f.start === undefined && f.end === undefined && !(f.members && !Array.isArray(f.members))) {
    const where = { source: f.source, status: f.status };
    const r = f.members
      ? await readCounter(db, SEED_MEMBER_STAT, { ...where, member_id: f.members })
      : await readCounter(db, SEED_STAT, where);
    return { n: r.n, total: r.total_sum, released: r.released_sum };
  }
  return filtered(db, f)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      moneySum('s.total_energy').as('total'),
      moneySum('s.released').as('released'),
    ])
    .executeTakeFirstOrThrow();
}

export interface SeedPageRow {
  id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  name: string;
  source: number;
  ref_id: number | null;
  total_energy: string;
  daily_energy: string;
  released: string;
  days: number;
  start_day: number;
  end_day: number;
  paid_day: number;
  status: number;
  created_at: number;
  finished_at: number | null;
}

/** A page of seeds (newest first by default) and the exact total and sums of the filter. */
export async function findSeeds(db: Kysely<Database>, f: SeedFilter, page: KeysetPageRequest) {
  const pageRows = keysetSlice(
    filtered(db, f).select([
      's.id',
      's.member_id',
      's.name',
      's.source',
      's.ref_id',
      money('s.total_energy').as('total_energy'),
      money('s.daily_energy').as('daily_energy'),
      money('s.released').as('released'),
      's.days',
      's.start_day',
      's.end_day',
      's.paid_day',
      's.status',
      's.created_at',
      's.finished_at',
    ]),
    page,
    { sort: 's.id', id: 's.id', afterLookup: Array.isArray(f.members) && f.members.length !== 1 },
  ).as('p');
  const [paged, agg] = await Promise.all([
    readPageWithMembers<SeedPageRow>(db, pageRows, page, 'id'),
    countAndSum(db, f),
  ]);
  return { ...paged, total: Number(agg.n), sumTotal: agg.total, sumReleased: agg.released };
}

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
export async function rebuildSeedStats(db: Db): Promise<void> {
  await rebuildCounter(db, SEED_STAT);
  await rebuildCounter(db, SEED_MEMBER_STAT);
  await rebuildCounter(db, SEED_RELEASE_STAT);
}

/** Where the seed counters differ from the seeds and releases (all empty when consistent). */
export async function seedCounterViolations(db: Db) {
  const [seeds, members, releases] = await Promise.all([
    counterViolations(db, SEED_STAT),
    counterViolations(db, SEED_MEMBER_STAT),
    counterViolations(db, SEED_RELEASE_STAT),
  ]);
  return { seeds, members, releases };
}

export interface NewSeed {
  memberId: number;
  name: string;
  source: number;
  refId: number | null;
  totalEnergy: bigint;
  dailyEnergy: bigint;
  days: number;
  startDay: number;
  now: number;
}

/** Inserts a growing seed and queues its seed_stat and seed_member_stat counts. */
export async function insertSeed(db: Db, counts: CounterMoves, v: NewSeed): Promise<number> {
  const r = await db
    .insertInto('seed')
    .values({
      member_id: v.memberId,
      name: v.name,
      source: v.source,
      ref_id: v.refId,
      total_energy: v.totalEnergy,
      daily_energy: v.dailyEnergy,
      days: v.days,
      start_day: v.startDay,
      end_day: v.startDay + v.days,
      paid_day: v.startDay,
      released: 0n,
      status: 1,
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const growing = { source: v.source, status: 1 };
  counts.move(db, SEED_STAT, null, growing, { total_sum: v.totalEnergy, released_sum: 0n });
  counts.move(
    db,
    SEED_MEMBER_STAT,
    null,
    { member_id: v.memberId, ...growing },
    { total_sum: v.totalEnergy, released_sum: 0n, release_n: 0n },
  );
  return Number(r.id);
}

export async function memberExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('member').select('id').where('id', '=', id).executeTakeFirst());
}

// ---- releases ----

export interface SeedReleaseFilter {
  seedId?: number;
  members?: KeywordMembers;
  /** Asia/Shanghai day numbers, inclusive. */
  fromDay?: number;
  toDay?: number;
}

function releasesFiltered(db: Db, f: SeedReleaseFilter) {
  let q = db.selectFrom('seed_release as r');
  if (f.seedId !== undefined) q = q.where('r.seed_id', '=', f.seedId);
  if (f.members) q = q.where(memberIdIn(db, 'r.member_id', f.members));
  if (f.fromDay !== undefined) q = q.where('r.day', '>=', f.fromDay);
  if (f.toDay !== undefined) q = q.where('r.day', '<=', f.toDay);
  return q;
}

/**
 * The count and sum of a release filter: a day range from seed_release_stat; the members of a keyword
 * (ids, no day range) from their seed_member_stat rows; anything else (one seed's releases) counted.
 */
async function countReleases(db: Db, f: SeedReleaseFilter): Promise<{ n: number | string; amount: string }> {
  const days = f.fromDay !== undefined || f.toDay !== undefined;
  if (f.seedId === undefined && Array.isArray(f.members) && !days) {
    const r = await readCounter(db, SEED_MEMBER_STAT, { member_id: f.members });
    return { n: r.release_n, amount: r.released_sum };
  }
  if (f.seedId === undefined && !f.members) {
    let q = db
      .selectFrom('seed_release_stat')
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'), moneySum('amount_sum').as('amount')]);
    if (f.fromDay !== undefined) q = q.where('day', '>=', f.fromDay);
    if (f.toDay !== undefined) q = q.where('day', '<=', f.toDay);
    return q.executeTakeFirstOrThrow();
  }
  return releasesFiltered(db, f)
    .select((eb) => [eb.fn.countAll<number>().as('n'), moneySum('r.amount').as('amount')])
    .executeTakeFirstOrThrow();
}

export interface SeedReleasePageRow {
  id: number;
  seed_id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  day: number;
  amount: string;
  created_at: number;
}

/** A page of releases, newest day first (then id), and the exact count and sum of the filter. */
export async function findSeedReleases(db: Kysely<Database>, f: SeedReleaseFilter, page: KeysetPageRequest) {
  const few = f.seedId !== undefined || (Array.isArray(f.members) && f.members.length !== 1);
  const pageRows = keysetSlice(
    releasesFiltered(db, f).select([
      'r.id',
      'r.seed_id',
      'r.member_id',
      'r.day',
      money('r.amount').as('amount'),
      'r.created_at',
    ]),
    page,
    { sort: 'r.day', id: 'r.id', afterLookup: few, manyEqual: { db } },
  ).as('p');
  const [paged, agg] = await Promise.all([
    readPageWithMembers<SeedReleasePageRow>(db, pageRows, page, 'day'),
    countReleases(db, f),
  ]);
  return { ...paged, total: Number(agg.n), sumAmount: agg.amount };
}

// ---- the settlement job's counter moves (seeds.query.ts countSeedReleases) ----

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
