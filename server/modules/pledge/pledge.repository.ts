/**
 * All SQL on pledges and their releases (the modes: modes.repository.ts). Plain functions taking `db` or `trx` first.
 * Built for 1,000,000 pledges and 10,000,000 releases: pages by keyset at any depth; the total and
 * sums of a mode/status filter come from pledge_stat, those of a day range of releases from
 * pledge_release_stat (both moved in the writing transaction); a member's or a pledge's records are
 * few and counted directly.
 */
import { type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type CounterMoves } from '../../db/counterMoves';
import { readCounter } from '../../db/counters';
import { forNoKeyUpdate } from '../../db/dialect';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { money, moneySum } from '../../db/sql';
import { memberIdIn, readPageWithMembers, type KeywordMembers } from '../members/members.query';
import { PLEDGE_MEMBER_STAT, PLEDGE_STAT } from './pledge.counters';

export type Db = Kysely<Database> | Transaction<Database>;

// ---- pledges ----

export interface PledgeFilter {
  /** The members whose records are listed: ids (a keyword or member id resolved first), or a subquery. */
  members?: KeywordMembers;
  modeId?: number;
  status?: number;
  start?: number;
  end?: number;
}

/** The pledges of a filter (the list's, the export's and the sums' query starts here). */
export function filtered(db: Db, f: PledgeFilter) {
  let q = db.selectFrom('pledge as p');
  if (f.members) q = q.where(memberIdIn(db, 'p.member_id', f.members));
  if (f.modeId !== undefined) q = q.where('p.mode_id', '=', f.modeId);
  if (f.status !== undefined) q = q.where('p.status', '=', f.status);
  if (f.start !== undefined) q = q.where('p.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('p.created_at', '<=', f.end);
  return q;
}

/**
 * Without a date range the counters answer the count and sums: pledge_stat for a mode and a status,
 * pledge_member_stat for the members of a keyword (ids) with them.
 */
async function countAndSum(db: Db, f: PledgeFilter) {
  if (f.start === undefined && f.end === undefined && !(f.members && !Array.isArray(f.members))) {
    const where = { mode_id: f.modeId, status: f.status };
    const r = f.members
      ? await readCounter(db, PLEDGE_MEMBER_STAT, { ...where, member_id: f.members })
      : await readCounter(db, PLEDGE_STAT, where);
    return { n: r.n, amount: r.amount_sum, released: r.released_sum };
  }
  return filtered(db, f)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      moneySum('p.amount').as('amount'),
      moneySum('p.released').as('released'),
    ])
    .executeTakeFirstOrThrow();
}

const PLEDGE_COLUMNS = [
  'p.id',
  'p.member_id',
  'p.mode_id',
  'p.mode_name',
  money('p.amount').as('amount'),
  money('p.rate').as('rate'),
  'p.days',
  money('p.daily_yield').as('daily_yield'),
  money('p.total_yield').as('total_yield'),
  'p.start_day',
  'p.end_day',
  'p.paid_day',
  money('p.released').as('released'),
  'p.status',
  'p.created_at',
  'p.finished_at',
] as const;

export interface PledgeRow {
  id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  mode_id: number;
  mode_name: string;
  amount: string;
  rate: string;
  days: number;
  daily_yield: string;
  total_yield: string;
  start_day: number;
  end_day: number;
  paid_day: number;
  released: string;
  status: number;
  created_at: number;
  finished_at: number | null;
}

/**
 * A page of pledges (newest first by default) and the exact total and sums of the filter. One member's
 * page walks the (member, id) index; a few members' pledges are sorted.
 */
export async function findPledges(db: Kysely<Database>, f: PledgeFilter, page: KeysetPageRequest) {
  const pageRows = keysetSlice(filtered(db, f).select(PLEDGE_COLUMNS), page, {
    sort: 'p.id',
    id: 'p.id',
    afterLookup: Array.isArray(f.members) && f.members.length !== 1,
  }).as('p');
  const [paged, agg] = await Promise.all([
    readPageWithMembers<PledgeRow>(db, pageRows, page, 'id'),
    countAndSum(db, f),
  ]);
  return { ...paged, total: Number(agg.n), sumAmount: agg.amount, sumReleased: agg.released };
}

/**
 * The member's status, row-locked on PostgreSQL so one member's pledges are checked one at a time
 * (NO KEY: a bill inserted for the member meanwhile must not deadlock against this lock).
 */
export async function lockMember(trx: Db, memberId: number) {
  const q = trx.selectFrom('member').select(['id', 'status']).where('id', '=', memberId);
  return forNoKeyUpdate(q, trx as unknown as Kysely<unknown>).executeTakeFirst();
}

export interface NewPledge {
  memberId: number;
  modeId: number;
  modeName: string;
  amount: bigint;
  rate: bigint;
  days: number;
  dailyYield: bigint;
  totalYield: bigint;
  startDay: number;
  now: number;
}

/** Inserts an active pledge and queues its pledge_stat count. */
export async function insertPledge(db: Db, counts: CounterMoves, v: NewPledge): Promise<number> {
  const r = await db
    .insertInto('pledge')
    .values({
      member_id: v.memberId,
      mode_id: v.modeId,
      mode_name: v.modeName,
      amount: v.amount,
      rate: v.rate,
      days: v.days,
      daily_yield: v.dailyYield,
      total_yield: v.totalYield,
      start_day: v.startDay,
      end_day: v.startDay + v.days,
      paid_day: v.startDay,
      released: 0n,
      status: 1,
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const active = { mode_id: v.modeId, status: 1 };
  counts.move(db, PLEDGE_STAT, null, active, { amount_sum: v.amount, released_sum: 0n });
  counts.move(
    db,
    PLEDGE_MEMBER_STAT,
    null,
    { member_id: v.memberId, ...active },
    { amount_sum: v.amount, released_sum: 0n, release_n: 0n },
  );
  return Number(r.id);
}

// ---- releases ----

export interface ReleaseFilter {
  pledgeId?: number;
  members?: KeywordMembers;
  /** Asia/Shanghai day numbers, inclusive. */
  fromDay?: number;
  toDay?: number;
}

function releasesFiltered(db: Db, f: ReleaseFilter) {
  let q = db.selectFrom('pledge_release as r');
  if (f.pledgeId !== undefined) q = q.where('r.pledge_id', '=', f.pledgeId);
  if (f.members) q = q.where(memberIdIn(db, 'r.member_id', f.members));
  if (f.fromDay !== undefined) q = q.where('r.day', '>=', f.fromDay);
  if (f.toDay !== undefined) q = q.where('r.day', '<=', f.toDay);
  return q;
}

/**
 * The count and sums of a release filter: a day range from pledge_release_stat; the members of a keyword
 * (ids, no day range) from their pledge_member_stat rows; anything else (one pledge's releases) counted.
 */
async function countReleaseRows(db: Db, f: ReleaseFilter) {
  const days = f.fromDay !== undefined || f.toDay !== undefined;
  if (f.pledgeId === undefined && Array.isArray(f.members) && !days) {
    const [all, finished] = await Promise.all([
      readCounter(db, PLEDGE_MEMBER_STAT, { member_id: f.members }),
      readCounter(db, PLEDGE_MEMBER_STAT, { member_id: f.members, status: 2 }),
    ]);
    // One release per paid day; the principal is returned with the last one, when the pledge finishes.
    return { n: all.release_n, amount: all.released_sum, principal: finished.amount_sum };
  }
  if (f.pledgeId === undefined && !f.members) {
    let q = db
      .selectFrom('pledge_release_stat')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'),
        moneySum('amount_sum').as('amount'),
        moneySum('principal_sum').as('principal'),
      ]);
    if (f.fromDay !== undefined) q = q.where('day', '>=', f.fromDay);
    if (f.toDay !== undefined) q = q.where('day', '<=', f.toDay);
    return q.executeTakeFirstOrThrow();
  }
  return releasesFiltered(db, f)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      moneySum('r.amount').as('amount'),
      moneySum('r.principal').as('principal'),
    ])
    .executeTakeFirstOrThrow();
}

export interface ReleaseRow {
  id: number;
  pledge_id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  day: number;
  amount: string;
  principal: string;
  created_at: number;
}

/** A page of releases, newest day first (then id), and the exact count and sums of the filter. */
export async function findReleases(db: Kysely<Database>, f: ReleaseFilter, page: KeysetPageRequest) {
  const few = f.pledgeId !== undefined || (Array.isArray(f.members) && f.members.length !== 1);
  const pageRows = keysetSlice(
    releasesFiltered(db, f).select([
      'r.id',
      'r.pledge_id',
      'r.member_id',
      'r.day',
      money('r.amount').as('amount'),
      money('r.principal').as('principal'),
      'r.created_at',
    ]),
    page,
    { sort: 'r.day', id: 'r.id', afterLookup: few, manyEqual: { db } },
  ).as('p');
  const [paged, agg] = await Promise.all([
    readPageWithMembers<ReleaseRow>(db, pageRows, page, 'day'),
    countReleaseRows(db, f),
  ]);
  return { ...paged, total: Number(agg.n), sumAmount: agg.amount, sumPrincipal: agg.principal };
}
