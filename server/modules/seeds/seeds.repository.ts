/**
 * All SQL on seeds and their releases. Plain functions taking `db` or `trx` first. Built for
 * 1,000,000 seeds and 10,000,000 releases: pages by keyset at any depth; the total and sums of a
 * source/status filter come from seed_stat, a member's from seed_member_stat, those of a day range of
 * releases from seed_release_stat (all moved in the writing transaction); a seed's releases are few
 * and counted directly.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type CounterMoves } from '../../db/counterMoves';
import { readCounter } from '../../db/counters';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { money, moneySum } from '../../db/sql';
import { memberIdIn, readPageWithMembers, type KeywordMembers } from '../members/members.query';
import { SEED_MEMBER_STAT, SEED_STAT } from './seeds.counters';

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
