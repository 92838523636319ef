/**
 * The statistics' reads: every figure from a counter kept in the transaction that writes the fact
 * (bill_stat and order_day_stat per day, member_day_stat, the status counters), never a scan of bills
 * or members per request. A year is at most 366 day rows per key.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money, moneySum } from '../../db/sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface BillDayRow {
  day: number;
  asset: string;
  type: number;
  n: number;
  change: string;
  frozen: string;
}

/** bill_stat's day rows of `types` in days [from, to]. */
export async function billDays(db: Db, types: readonly number[], from: number, to: number): Promise<BillDayRow[]> {
  const rows = await db
    .selectFrom('bill_stat')
    .select([
      'bucket as day',
      'asset',
      'type',
      'n',
      sql<string>`cast(change_sum as text)`.as('change'),
      sql<string>`cast(frozen_change_sum as text)`.as('frozen'),
    ])
    .where('kind', '=', 'D')
    .where('bucket', '>=', from)
    .where('bucket', '<=', to)
    .where('type', 'in', [...types])
    .execute();
  return rows.map((r) => ({ ...r, day: Number(r.day), type: Number(r.type), n: Number(r.n) }));
}

/** order_day_stat's day rows in days [from, to]. */
export async function orderDays(db: Db, from: number, to: number) {
  const rows = await db
    .selectFrom('order_day_stat')
    .select(['bucket as day', 'asset', 'n', sql<string>`cast(total_sum as text)`.as('total')])
    .where('kind', '=', 'D')
    .where('bucket', '>=', from)
    .where('bucket', '<=', to)
    .execute();
  return rows.map((r) => ({ day: Number(r.day), asset: r.asset, n: Number(r.n), total: r.total }));
}

/** member_day_stat's rows in days [from, to]. */
export async function memberDays(db: Db, from: number, to: number) {
  const rows = await db
    .selectFrom('member_day_stat')
    .select(['day', 'n'])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  return rows.map((r) => ({ day: Number(r.day), n: Number(r.n) }));
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
