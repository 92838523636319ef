/**
 * All SQL on seeds and their releases. Plain functions taking `db` or `trx` first. Built for
 * 1,000,000 seeds and 10,000,000 releases: pages by keyset at any depth; the total and sums of a
 * source/status filter come from seed_stat, those of a day range of releases from seed_release_stat
 * (both moved in the writing transaction); a member's or a seed's records are few and counted directly.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import {
  counter,
  counterViolations,
  moveCounter,
  rebuildCounter,
  refuseOverflow,
  type CounterMoves,
  readCounter,
} from '../../db/counters';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { money, moneySum } from '../../db/sql';
import { memberIdIn, readPageWithMembers, type KeywordMembers } from '../members/members.query';

type Db = Kysely<Database> | Transaction<Database>;
/** Run-time column names (counter statements built per key). */
const loose = (db: Db) => db as unknown as Kysely<any>;

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

/** Only a source and a status: seed_stat answers the count and sums. */
const countedByStat = (f: SeedFilter) => !f.members && f.start === undefined && f.end === undefined;

async function countAndSum(db: Db, f: SeedFilter) {
  if (countedByStat(f)) {
    const r = await readCounter(db, SEED_STAT, { source: f.source, status: f.status });
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
    { sort: 's.id', id: 's.id', afterLookup: Array.isArray(f.members) },
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

export const rebuildSeedStats = (db: Db): Promise<void> => rebuildCounter(db, SEED_STAT);
export const seedStatViolations = (db: Db) => counterViolations(db, SEED_STAT);

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

/** Inserts a growing seed and queues its seed_stat count. */
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
  counts.add(() =>
    moveCounter(db, SEED_STAT, null, { source: v.source, status: 1 }, { total_sum: v.totalEnergy, released_sum: 0n }),
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

async function countReleases(db: Db, f: SeedReleaseFilter): Promise<{ n: number | string; amount: string }> {
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
  /** seed.source (1|2|3). */
  source: number;
  /** The released day (Asia/Shanghai day number). */
  day: number;
  /** ENERGY minor units released that day. */
  amount: bigint;
  /** seed.total_energy. */
  totalEnergy: bigint;
  /** This release was the end day: the batch moved the seed from status 1 to 2. */
  matured: boolean;
}

/**
 * The counter moves of a batch of releases, aggregated: per day one seed_release_stat upsert, per
 * source the growing row's released sum (and the matured seeds moved from (source, 1) to (source, 2)).
 * Keys are taken in ascending order, as every counter writer does.
 */
export async function moveSeedReleaseCounters(db: Db, rows: readonly SeedReleaseCount[]): Promise<void> {
  if (!rows.length) return;
  const byDay = new Map<number, { n: number; amount: bigint }>();
  const bySource = new Map<number, { released: bigint; matured: number; maturedTotal: bigint }>();
  for (const r of rows) {
    const d = byDay.get(r.day) ?? { n: 0, amount: 0n };
    d.n += 1;
    d.amount += r.amount;
    byDay.set(r.day, d);
    const s = bySource.get(r.source) ?? { released: 0n, matured: 0, maturedTotal: 0n };
    s.released += r.amount;
    if (r.matured) {
      s.matured += 1;
      s.maturedTotal += r.totalEnergy;
    }
    bySource.set(r.source, s);
  }
  for (const [source, s] of [...bySource.entries()].sort(([a], [b]) => a - b)) {
    // (source, 1): the released energy stays here unless the seed matured; a matured seed leaves with
    // its whole total (released = total once matured).
    const r1 = await refuseOverflow(() =>
      loose(db)
        .updateTable('seed_stat')
        .set({
          n: sql`n - ${s.matured}`,
          total_sum: sql`total_sum - ${s.maturedTotal}`,
          released_sum: sql`released_sum + ${s.released} - ${s.maturedTotal}`,
        })
        .where('source', '=', source)
        .where('status', '=', 1)
        .executeTakeFirst(),
    );
    if (Number(r1.numUpdatedRows) !== 1) throw new Error(`seed_stat has no row for source ${source}, status 1`);
    if (s.matured > 0) {
      await refuseOverflow(() =>
        loose(db)
          .insertInto('seed_stat')
          .values({ source, status: 2, n: s.matured, total_sum: s.maturedTotal, released_sum: s.maturedTotal })
          .onConflict((oc: any) =>
            oc.columns(['source', 'status']).doUpdateSet({
              n: sql`seed_stat.n + excluded.n`,
              total_sum: sql`seed_stat.total_sum + excluded.total_sum`,
              released_sum: sql`seed_stat.released_sum + excluded.released_sum`,
            }),
          )
          .execute(),
      );
    }
  }
  const days = [...byDay.entries()].sort(([a], [b]) => a - b);
  await refuseOverflow(() =>
    loose(db)
      .insertInto('seed_release_stat')
      .values(days.map(([day, d]) => ({ day, n: d.n, amount_sum: d.amount })))
      .onConflict((oc: any) =>
        oc.column('day').doUpdateSet({
          n: sql`seed_release_stat.n + excluded.n`,
          amount_sum: sql`seed_release_stat.amount_sum + excluded.amount_sum`,
        }),
      )
      .execute(),
  );
}

/** seed_release_stat rows that differ from the releases (empty when consistent). */
export async function seedReleaseStatViolations(db: Db) {
  const r = await sql<{ day: number }>`
    select coalesce(c.day, s.day) as day
    from (select day, count(*) as n, sum(amount) as amount_sum from seed_release group by day) c
    full outer join seed_release_stat s on s.day = c.day
    where (c.n is null and (s.n <> 0 or s.amount_sum <> 0)) or s.n is null
       or c.n <> s.n or c.amount_sum <> s.amount_sum`.execute(db);
  return r.rows;
}

/** Recounts seed_release_stat from the releases (bulk loads that write them directly). */
export async function rebuildSeedReleaseStats(db: Db): Promise<void> {
  await db.deleteFrom('seed_release_stat').execute();
  await sql`insert into seed_release_stat (day, n, amount_sum)
    select day, count(*), sum(amount) from seed_release group by day`.execute(db);
}
