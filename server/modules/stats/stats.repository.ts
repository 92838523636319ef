/**
 * The statistics' reads: every figure from a counter kept in the transaction that writes the fact
 * (bill_stat and order_day_stat per day, member_day_stat, the status counters), never a scan of bills
 * or members per request. A year is at most 366 day rows per key.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money, moneySum } from '../../db/sql';
import { selectArrays } from '../../db/statements';
import { BLOCK_DAYS } from '../../db/dayBuckets';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * bill_stat's day rows of `types` in days [from, to] as `[day, type, asset, n, amount]` arrays (read as
 * arrays: a year is ~2,000 rows). `amount` is the exact text of what the bills moved, positive: the
 * frozen amount paid out for a paid withdrawal (type 3), the available amount for the others, negated
 * for a pledge lock (type 7, which takes LZ out of the balance).
 */
export async function billDays(db: Db, types: readonly number[], from: number, to: number) {
  const amount = sql<string>`cast(case type when 3 then -frozen_change_sum when 7 then -change_sum else change_sum end as text)`;
  const rows = await selectArrays<[number, number, string, number, string]>(
    db,
    db
      .selectFrom('bill_stat')
      .select(['bucket', 'type', 'asset', 'n', amount.as('amount')])
      .where('kind', '=', 'D')
      .where('bucket', '>=', from)
      .where('bucket', '<=', to)
      .where('type', 'in', [...types]),
  );
  return rows;
}

/** order_day_stat's day rows in days [from, to] as `[day, asset, n, total]` arrays. */
export async function orderDays(db: Db, from: number, to: number) {
  return selectArrays<[number, string, number, string]>(
    db,
    db
      .selectFrom('order_day_stat')
      .select(['bucket', 'asset', 'n', sql<string>`cast(total_sum as text)`.as('total')])
      .where('kind', '=', 'D')
      .where('bucket', '>=', from)
      .where('bucket', '<=', to),
  );
}

/** member_day_stat's rows in days [from, to] as `[day, n]` arrays. */
export async function memberDays(db: Db, from: number, to: number) {
  return selectArrays<[number, number]>(
    db,
    db.selectFrom('member_day_stat').select(['day', 'n']).where('day', '>=', from).where('day', '<=', to),
  );
}

/**
 * Each 32-day block's version in blocks [b0, b1]: the sums of `n` (and of the amounts) of its bill_stat
 * 'B' rows of `types`, its order_day_stat 'B' rows and its member_day_stat rows, as
 * `bills:orders:members` (`n` only grows, so any fact written into the block changes it; the amounts
 * catch a rebuild of the counters). A block without rows is absent.
 */
export async function blockVersions(db: Db, types: readonly number[], b0: number, b1: number) {
  const [bills, orders, members] = await Promise.all([
    selectArrays<[number, string]>(
      db,
      db
        .selectFrom('bill_stat')
        .select([
          'bucket',
          sql<string>`cast(sum(n) as text) || '/' || cast(sum(change_sum) as text) || '/' || cast(sum(frozen_change_sum) as text)`.as(
            'n',
          ),
        ])
        .where('kind', '=', 'B')
        .where('bucket', '>=', b0)
        .where('bucket', '<=', b1)
        .where('type', 'in', [...types])
        .groupBy('bucket'),
    ),
    selectArrays<[number, string]>(
      db,
      db
        .selectFrom('order_day_stat')
        .select(['bucket', sql<string>`cast(sum(n) as text) || '/' || cast(sum(total_sum) as text)`.as('n')])
        .where('kind', '=', 'B')
        .where('bucket', '>=', b0)
        .where('bucket', '<=', b1)
        .groupBy('bucket'),
    ),
    selectArrays<[number, string]>(
      db,
      db
        .selectFrom('member_day_stat')
        .select([sql<number>`day / ${sql.lit(BLOCK_DAYS)}`.as('b'), sql<string>`cast(sum(n) as text)`.as('n')])
        .where('day', '>=', b0 * BLOCK_DAYS)
        .where('day', '<=', b1 * BLOCK_DAYS + BLOCK_DAYS - 1)
        .groupBy(sql`day / ${sql.lit(BLOCK_DAYS)}`),
    ),
  ]);
  const parts = new Map<number, [string, string, string]>();
  const part = (b: number) => {
    let p = parts.get(b);
    if (!p) parts.set(b, (p = ['0', '0', '0']));
    return p;
  };
  for (const [b, n] of bills) part(Number(b))[0] = n;
  for (const [b, n] of orders) part(Number(b))[1] = n;
  for (const [b, n] of members) part(Number(b))[2] = n;
  return new Map([...parts].map(([b, p]) => [b, p.join(':')]));
}

/** The state now: members, pending deposits and withdrawals, active pledges, appeals and orders to ship. */
export async function snapshot(db: Db) {
  const [members, deposits, withdrawals, pledges, matches, orders] = await Promise.all([
    db
      .selectFrom('member_count')
      .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('deposit_stat')
      .select(['n', money('amount_sum').as('amount')])
      .where('status', '=', 0)
      .executeTakeFirst(),
    db
      .selectFrom('withdrawal_stat')
      .select(['type', 'n', money('amount_sum').as('amount')])
      .where('status', '=', 0)
      .execute(),
    db
      .selectFrom('pledge_stat')
      .select([sql<string>`coalesce(sum(n), 0)`.as('n'), moneySum('amount_sum').as('amount')])
      .where('status', '=', 1)
      .executeTakeFirstOrThrow(),
    db.selectFrom('match_stat').select('n').where('status', '=', 5).executeTakeFirst(),
    db
      .selectFrom('order_stat')
      .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
      .where('status', '=', 1)
      .executeTakeFirstOrThrow(),
  ]);
  const num = (x: unknown) => Number(x ?? 0);
  return {
    members: num(members.n),
    depositPending: { n: num(deposits?.n), amount: String(deposits?.amount ?? '0') },
    withdrawPending: Object.fromEntries(
      withdrawals.map((w) => [Number(w.type), { n: num(w.n), amount: String(w.amount ?? '0') }]),
    ) as Record<number, { n: number; amount: string } | undefined>,
    pledgeActive: { n: num(pledges.n), amount: String(pledges.amount ?? '0') },
    appeals: num(matches?.n),
    toShip: num(orders.n),
  };
}
