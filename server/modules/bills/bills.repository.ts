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
import { money, moneySum } from '../../db/sql';
import { sumByAsset } from '../../db/dayBuckets';
import { memberIdIn, readPageWithMembers } from '../members/members.query';

type Db = Kysely<Database> | Transaction<Database>;

export interface BillFilter {
  /** The members whose bills are listed: ids, or (a keyword matching many members) a subquery. */
  members?: number[] | { keyword: string };
  asset?: string;
  type?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: BillFilter) {
  let q = db.selectFrom('bill as b');
  if (f.members) q = q.where(memberIdIn(db, 'b.member_id', f.members));
  if (f.asset) q = q.where('b.asset', '=', f.asset);
  if (f.type !== undefined) q = q.where('b.type', '=', f.type);
  if (f.start !== undefined) q = q.where('b.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('b.created_at', '<=', f.end);
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
export async function findBills(db: Db, f: BillFilter, page: KeysetPageRequest) {
  const pageRows = keysetSlice(
    filtered(db, f).select([
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
    { sort: 'b.created_at', id: 'b.id', afterLookup: Array.isArray(f.members) && f.members.length > 1 },
  ).as('p');
  return readPageWithMembers<BillPageRow>(db, pageRows, page, 'created_at');
}

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
  const bounded = filtered(db, f)
    .select('b.id')
    .limit(cap + 1)
    .as('x');
  const c = await db
    .selectFrom(bounded)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(c.n);
  if (n > cap) return { n, sums: null };
  const sums = await sumBills(db, f);
  return { n, sums: sums.map((s) => ({ ...s, n: Number(s.n) })) };
}

/** Count and per-asset sums counted from the bills themselves. */
function sumBills(db: Db, f: BillFilter) {
  return filtered(db, f)
    .select((eb) => [
      'b.asset',
      eb.fn.countAll<number>().as('n'),
      moneySum('b.change').as('change'),
      moneySum('b.frozen_change').as('frozen_change'),
    ])
    .groupBy('b.asset')
    .orderBy('b.asset')
    .execute();
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
