/**
 * All SQL on bills (read side; only the ledger writes them). Built for tens of millions of rows
 * (docs/decisions.md "Bills"):
 * - pages newest first by (created_at, id) through the (x, created_at, id) indexes, by page number within
 *   the first MAX_OFFSET rows and by keyset cursor at any depth;
 * - totals and sums of asset/type/date filters are exact, summed from bill_stat (per day and per 32-day
 *   block, kept by the ledger) plus the bills of a part-day at either end of the range;
 * - a member filter counts that member's bills up to a cap (most members have a handful).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { ShapedPage } from '../../db/shapedPage';
import { ShapedQuery } from '../../db/shapes';
import { money, moneySum } from '../../db/sql';
import { sumByAsset } from '../../db/dayBuckets';
import {
  listFilterKey,
  listFilterParts,
  memberIdCondition,
  withMembers,
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';

type Db = Kysely<Database> | Transaction<Database>;

export interface BillFilter {
  /** The members whose bills are listed: ids, or (a keyword matching many members) a subquery. */
  members?: number[] | { keyword: string };
  asset?: string;
  type?: number;
  start?: number;
  end?: number;
}

type FilterShape = ListFilterShape<BillFilter>;
type FilterValues = ListFilterValues<BillFilter>;

function filtered(db: Db, s: FilterShape, v: FilterValues) {
  let q = db.selectFrom('bill as b');
  const g = s.given;
  const members = memberIdCondition(db, 'b.member_id', s.members, v);
  if (members) q = q.where(members);
  if (g.asset) q = q.where('b.asset', '=', v.asset!);
  if (g.type) q = q.where('b.type', '=', v.type!);
  if (g.start) q = q.where('b.created_at', '>=', v.start!);
  if (g.end) q = q.where('b.created_at', '<=', v.end!);
  return q;
}

export interface BillPageRow {
  id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  asset: string;
  type: number;
  change: string;
  available_after: string;
  frozen_change: string;
  frozen_after: string;
  ref_kind: string;
  ref_id: number | null;
  remark: string;
  created_at: number;
}

/**
 * One page, newest first by (created_at, id) (or oldest first), from `offset` or from a cursor. The page
 * is chosen alone (an index walk, or for a few members their bills sorted), then joined to its members.
 */
export function findBills(db: Db, f: BillFilter, page: KeysetPageRequest) {
  return billPage.read(db, listFilterParts(f), { ...page, sort: 'created_at' });
}

const billPage = new ShapedPage<FilterShape, FilterValues, 'created_at', BillPageRow>(
  listFilterKey,
  (db, s, v, page) =>
    withMembers<BillPageRow>(
      db,
      keysetSlice(
        filtered(db, s.filter, v).select([
          'b.id',
          'b.member_id',
          'b.asset',
          'b.type',
          money('b.change').as('change'),
          money('b.available_after').as('available_after'),
          money('b.frozen_change').as('frozen_change'),
          money('b.frozen_after').as('frozen_after'),
          'b.ref_kind',
          'b.ref_id',
          'b.remark',
          'b.created_at',
        ]),
        page,
        // Several members: their bills are found through the member index and sorted. One member, or none:
        // the index walk is the order.
        {
          sort: 'b.created_at',
          id: 'b.id',
          afterLookup: s.filter.members.startsWith('ids') && Number(s.filter.members.slice(3)) > 1,
        },
      ).as('p'),
    ),
  (sort: 'created_at') => sort,
);

export interface BillSums {
  asset: string;
  n: number;
  change: string;
  frozen_change: string;
}

/**
 * Count of a member-scoped filter, stopping at `cap + 1` (an index walk over that member's bills);
 * the per-asset sums only when the count is exact (then they read at most `cap` rows).
 */
export async function countMemberBills(
  db: Db,
  f: BillFilter,
  cap: number,
): Promise<{ n: number; sums: BillSums[] | null }> {
  const { shape, values } = listFilterParts(f);
  const c = await boundedCount.executeTakeFirstOrThrow(db, shape, { ...values, count_cap: cap + 1 });
  const n = Number(c.n);
  if (n > cap) return { n, sums: null };
  const sums = await sumBills(db, f);
  return { n, sums: sums.map((s) => ({ ...s, n: Number(s.n) })) };
}

/** The count of a filter's bills up to `cap` (an index walk), compiled once per shape. */
const boundedCount = new ShapedQuery(listFilterKey, (db, s: FilterShape, v: FilterValues & { count_cap: number }) =>
  (db as Db)
    .selectFrom(
      filtered(db as Db, s, v)
        .select('b.id')
        .limit(v.count_cap)
        .as('x'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

/** Count and per-asset sums counted from the bills themselves, compiled once per shape. */
const billSums = new ShapedQuery(listFilterKey, (db, s: FilterShape, v: FilterValues) =>
  filtered(db as Db, s, v)
    .select((eb) => [
      'b.asset',
      eb.fn.countAll<number>().as('n'),
      moneySum('b.change').as('change'),
      moneySum('b.frozen_change').as('frozen_change'),
    ])
    .groupBy('b.asset')
    .orderBy('b.asset'),
);

function sumBills(db: Db, f: BillFilter) {
  const { shape, values } = listFilterParts(f);
  return billSums.execute(db, shape, values);
}

/** Whole blocks, whole days and part-days of a range (server/db/dayBuckets.ts, shared with transfers). */
export { statRanges, type StatRanges } from '../../db/dayBuckets';

/**
 * Exact count and sums per asset of an asset/type/date filter: bill_stat rows for the whole days and
 * blocks of the range, plus the bills of its part-days (server/db/dayBuckets.ts).
 */
export async function statBills(db: Db, f: { asset?: string; type?: number; start?: number; end?: number }) {
  return sumByAsset(
    db,
    {
      table: 'bill_stat',
      sums: { change: 'change_sum', frozen_change: 'frozen_change_sum' },
      where: { asset: f.asset, type: f.type },
    },
    f,
    (start, end) => sumBills(db, { asset: f.asset, type: f.type, start, end }),
  );
}
