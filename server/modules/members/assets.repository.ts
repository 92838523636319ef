/** All SQL of the asset query (资产查询, /query/list): every member's account of each asset. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money, moneySum } from '../../db/sql';
import { orderTerm } from './memberList.repository';
import { keywordMembers, memberIdIn, type KeywordMembers } from './members.query';

type Db = Kysely<Database> | Transaction<Database>;

export interface AssetFilter {
  keyword?: string;
  asset?: string;
  /** Minimum available + frozen, in minor units of each asset. */
  minTotal?: Record<string, bigint>;
}

const ASSET_SORT = {
  memberId: sql`a.member_id`,
  available: sql`a.available`,
  frozen: sql`a.frozen`,
  total: sql`a.available + a.frozen`,
} as const;
export type AssetSort = keyof typeof ASSET_SORT;

function filteredAccounts(db: Db, f: AssetFilter, members?: KeywordMembers) {
  let q = db.selectFrom('account as a');
  if (members) q = q.where(memberIdIn(db, 'a.member_id', members));
  if (f.asset) q = q.where('a.asset', '=', f.asset);
  if (f.minTotal) {
    const min = f.minTotal;
    q = q.where((eb) =>
      eb.or(
        Object.entries(min).map(([asset, v]) =>
          eb.and([eb('a.asset', '=', asset), eb(sql`a.available + a.frozen`, '>=', v)]),
        ),
      ),
    );
  }
  return q;
}

export interface AccountSums {
  asset: string;
  n: number | string;
  available: string;
  frozen: string;
}

/**
 * A page of accounts with their members, and per-asset count and sums of the filter. `everything`
 * (no keyword, no minimum) passes the totals computed elsewhere — the sums of every account are the
 * sums of every bill (the ledger invariant) — so they are not summed over millions of accounts here.
 */
export async function findAccounts(
  db: Db,
  f: AssetFilter,
  page: { offset: number; limit: number; sort: AssetSort; order: 'asc' | 'desc' },
  everything?: AccountSums[],
) {
  const members = f.keyword ? await keywordMembers(db, f.keyword) : undefined;
  // Few members: their accounts are sorted after the lookup (+ 0), not found by walking the key.
  const lookup = Array.isArray(members);
  const [rows, sums] = await Promise.all([
    filteredAccounts(db, f, members)
      .select([
        'a.member_id',
        'a.asset',
        money('a.available').as('available'),
        money('a.frozen').as('frozen'),
        'a.updated_at',
      ])
      // Not keysetSlice: an account's key is (member, asset), a third order term (no cursor by one id);
      // the page still comes from pageOf, within its offset cap.
      .orderBy(page.sort === 'memberId' ? orderTerm('a.member_id', lookup) : ASSET_SORT[page.sort], page.order)
      .orderBy(orderTerm('a.member_id', lookup), page.order)
      // USDT, LZ, ENERGY is their domain order and, by luck, reverse alphabetical: with member id
      // descending this reads the primary key backwards, no sort needed for the default page.
      .orderBy('a.asset', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    everything
      ? Promise.resolve(everything)
      : filteredAccounts(db, f, members)
          .select((eb) => [
            'a.asset',
            eb.fn.countAll<number>().as('n'),
            moneySum('a.available').as('available'),
            moneySum('a.frozen').as('frozen'),
          ])
          .groupBy('a.asset')
          .execute(),
  ]);
  const ids = [...new Set(rows.map((r) => Number(r.member_id)))];
  const found = ids.length
    ? await db.selectFrom('member').select(['id', 'uid', 'phone', 'nickname']).where('id', 'in', ids).execute()
    : [];
  const byId = new Map(found.map((m) => [Number(m.id), m]));
  return {
    rows: rows.map((r) => {
      const m = byId.get(Number(r.member_id));
      return { ...r, uid: m?.uid ?? '', phone: m?.phone ?? '', nickname: m?.nickname ?? '' };
    }),
    sums,
    total: sums.reduce((n, s) => n + Number(s.n), 0),
  };
}
