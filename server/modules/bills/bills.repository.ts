/**
 * All SQL on bills (read side; only the ledger writes them). Built for tens of millions of rows:
 * newest first by (created_at, id) through the (x, created_at, id) indexes, the count stops at a cap, and the sum is taken
 * over the same bounded set (see docs/decisions.md "Bills").
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';
import { membersMatching } from '../members/members.repository';

type Db = Kysely<Database> | Transaction<Database>;

export interface BillFilter {
  keyword?: string;
  memberId?: number;
  asset?: string;
  type?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: BillFilter) {
  let q = db.selectFrom('bill as b');
  if (f.keyword) q = q.where('b.member_id', 'in', membersMatching(db, f.keyword));
  if (f.memberId !== undefined) q = q.where('b.member_id', '=', f.memberId);
  if (f.asset) q = q.where('b.asset', '=', f.asset);
  if (f.type !== undefined) q = q.where('b.type', '=', f.type);
  if (f.start !== undefined) q = q.where('b.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('b.created_at', '<=', f.end);
  return q;
}

export async function findBills(db: Db, f: BillFilter, page: { offset: number; limit: number; order: 'asc' | 'desc' }) {
  return filtered(db, f)
    .innerJoin('member as m', 'm.id', 'b.member_id')
    .select([
      'b.id',
      'b.member_id',
      'm.uid',
      'm.phone',
      'm.nickname',
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
    ])
    .orderBy('b.created_at', page.order)
    .orderBy('b.id', page.order)
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/**
 * Count and per-asset sums of the first `cap + 1` matching rows (newest first): bounded work
 * whatever the table size. `n > cap` means the real count is larger and the sums are partial.
 */
export async function countAndSumBills(db: Db, f: BillFilter, cap: number) {
  const bounded = filtered(db, f)
    .select(['b.asset', 'b.change', 'b.frozen_change'])
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .limit(cap + 1)
    .as('x');
  return db
    .selectFrom(bounded)
    .select((eb) => [
      'x.asset',
      eb.fn.countAll<number>().as('n'),
      sql<string>`cast(coalesce(sum(x.change), 0) as text)`.as('change'),
      sql<string>`cast(coalesce(sum(x.frozen_change), 0) as text)`.as('frozen_change'),
    ])
    .groupBy('x.asset')
    .orderBy('x.asset')
    .execute();
}
