/**
 * The mall's counters, kept in the transaction of every order insert and status change: order_stat
 * (status, asset), order_product_stat (a product's), order_member_stat (a member's), order_day_stat
 * (per Asia/Shanghai day and 32-day block; orders are never deleted) — and their rebuild and check,
 * with product_stat's (./products.repository.ts).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounters } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { countInDayStat, dayStatViolations, rebuildDayStat, type DayStat } from '../../db/dayBuckets';
import { moneySum } from '../../db/sql';
import { listItems, listValues, ShapedQuery } from '../../db/shapes';
import { productStatViolations, rebuildProductStats } from './products.repository';

type Db = Kysely<Database> | Transaction<Database>;

/** order_stat: orders per (status, asset) with the sum of their totals. */
const ORDER_STAT = counter({
  table: 'order_stat',
  source: 'mall_order',
  keys: ['status', 'asset'],
  sums: { total_sum: 'total' },
});

/** order_product_stat: a product's orders per status and asset with the sum of their totals. */
const ORDER_PRODUCT_STAT = counter({
  table: 'order_product_stat',
  source: 'mall_order',
  keys: ['product_id', 'status', 'asset'],
  sums: { total_sum: 'total' },
});

/** order_member_stat: a member's orders per status and asset with the sum of their totals. */
const ORDER_MEMBER_STAT = counter({
  table: 'order_member_stat',
  source: 'mall_order',
  keys: ['member_id', 'status', 'asset'],
  sums: { total_sum: 'total' },
});

/** order_day_stat: orders per Asia/Shanghai day and 32-day block and asset (orders are never deleted). */
const ORDER_DAY_STAT = {
  table: 'order_day_stat',
  source: 'mall_order',
  keys: ['asset'],
  sums: { total_sum: 'total' },
} as const satisfies DayStat<'asset', 'total_sum'>;

export async function rebuildMallStats(db: Db): Promise<void> {
  await rebuildCounters(db, [ORDER_STAT, ORDER_PRODUCT_STAT, ORDER_MEMBER_STAT]);
  await rebuildDayStat(db, ORDER_DAY_STAT);
  await rebuildProductStats(db);
}

/** Where the mall's counters (orders per status, product, member and day; products) differ from their rows (empty when consistent). */
export async function mallStatViolations(db: Db): Promise<unknown[]> {
  return [
    ...(await counterViolations<string, string>(db, ORDER_STAT)),
    ...(await counterViolations<string, string>(db, ORDER_PRODUCT_STAT)),
    ...(await counterViolations<string, string>(db, ORDER_MEMBER_STAT)),
    ...(await dayStatViolations(db, ORDER_DAY_STAT)),
    ...(await productStatViolations(db)),
  ];
}

/** A product's open (待发货 / 已发货) and all orders, from order_product_stat. */
export async function productOrderCounts(db: Db, productId: number) {
  const [open, all] = await Promise.all([
    readCounter(db, ORDER_PRODUCT_STAT, { product_id: productId, status: [1, 2] }),
    readCounter(db, ORDER_PRODUCT_STAT, { product_id: productId }),
  ]);
  return { open: open.n, all: all.n };
}

export type AssetCount = { asset: string; n: number; total: string };

/**
 * Count and total per asset of the counter that answers `where`: a product's (order_product_stat), some
 * members' (order_member_stat) or all orders' (order_stat), maybe of one status.
 */
export async function countedRows(
  db: Db,
  where: { status?: number; product_id?: number; member_ids?: number[] },
): Promise<AssetCount[]> {
  const values: Record<string, unknown> = { status: where.status, product_id: where.product_id };
  listValues(values, 'member', where.member_ids ?? []);
  const shape = {
    status: where.status !== undefined,
    product: where.product_id !== undefined,
    members: where.member_ids?.length,
  };
  const rows = (await orderCounterRead.execute(db, shape, values)) as Array<{
    asset: string;
    n: number;
    total: string;
  }>;
  return rows.map((r) => ({ asset: r.asset, n: Number(r.n), total: r.total })).filter((r) => r.n > 0);
}

/** countedRows' statement, compiled once per shape: which counter, and which of its keys are given. */
const orderCounterRead = new ShapedQuery(
  (s: { status: boolean; product: boolean; members?: number }) => `${+s.status}${+s.product} ${s.members ?? '-'}`,
  (db, s, v: Record<string, unknown>) => {
    const table = s.product ? 'order_product_stat' : s.members !== undefined ? 'order_member_stat' : 'order_stat';
    let q = (db as Kysely<any>)
      .selectFrom(table)
      .select(['asset', sql<number>`coalesce(sum(n), 0)`.as('n'), moneySum('total_sum').as('total')])
      .groupBy('asset');
    if (s.status) q = q.where('status', '=', v.status);
    if (s.product) q = q.where('product_id', '=', v.product_id);
    if (s.members !== undefined) {
      const ids = listItems(v, 'member', s.members);
      q = q.where('member_id', 'in', ids.length ? ids : [-1]);
    }
    return q.orderBy('asset');
  },
);

/**
 * Queues one order's moves in every counter: from status `from` (null: a new order, also counted in its
 * day) to `to`.
 */
export function queueOrderStats(
  db: Db,
  counts: CounterMoves,
  o: { memberId: number; productId: number; asset: string; total: bigint; createdAt?: number },
  from: number | null,
  to: number,
): void {
  const sums = { total_sum: o.total };
  const at =
    <K extends object>(key: K) =>
    (status: number | null) =>
      status === null ? null : { ...key, status };
  const all = at({ asset: o.asset });
  const product = at({ product_id: o.productId, asset: o.asset });
  const member = at({ member_id: o.memberId, asset: o.asset });
  counts.move(db, ORDER_STAT, all(from), all(to)!, sums);
  counts.move(db, ORDER_PRODUCT_STAT, product(from), product(to)!, sums);
  counts.move(db, ORDER_MEMBER_STAT, member(from), member(to)!, sums);
  if (from === null && o.createdAt !== undefined) {
    const createdAt = o.createdAt;
    counts.add(() => countInDayStat(db, ORDER_DAY_STAT, createdAt, { asset: o.asset }, sums));
  }
}
