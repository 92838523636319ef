/**
 * All SQL on mall orders. Pages by keyset at any depth; the total and per-asset sums come from the
 * counters of ./orders.stats.ts where one answers the filter, else from the rows (an order number, a
 * date range with another filter). Every state change is one conditional UPDATE per allowed source
 * state (`updateFromFirst`), and queues its counter moves.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { CounterMoves } from '../../db/counterMoves';
import { sumByAsset } from '../../db/dayBuckets';
import { keysetSlice, ShapedPage, type KeysetPageRequest } from '../../db/keyset';
import { ShapedQuery } from '../../db/shapes';
import { money, moneySum } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';
import {
  listFilterKey,
  listFilterParts,
  memberIdCondition,
  withMembers,
  type KeywordMembers,
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';
import { countedRows, queueOrderStats, type AssetCount } from './orders.stats';

export { mallStatViolations, productOrderCounts, rebuildMallStats } from './orders.stats';

export type Db = Kysely<Database> | Transaction<Database>;

export interface OrderFilter {
  /** From an order number: its id and the epoch-ms bounds of its date. */
  number?: { id: number; start: number; end: number };
  members?: KeywordMembers;
  productId?: number;
  status?: number;
  start?: number;
  end?: number;
}

/** An order filter with its order number's parts as fields of their own (they are given together). */
type OrderFields = Omit<OrderFilter, 'number'> & { numberId?: number; numberStart?: number; numberEnd?: number };
type FilterShape = ListFilterShape<OrderFields>;
type FilterValues = ListFilterValues<OrderFields>;

const filterParts = ({ number, ...f }: OrderFilter) =>
  listFilterParts<OrderFields>({ ...f, numberId: number?.id, numberStart: number?.start, numberEnd: number?.end });

function filteredShape(db: Db, s: FilterShape, v: FilterValues) {
  const g = s.given;
  let q = db.selectFrom('mall_order as o');
  if (g.numberId)
    q = q
      .where('o.id', '=', v.numberId!)
      .where('o.created_at', '>=', v.numberStart!)
      .where('o.created_at', '<', v.numberEnd!);
  const members = memberIdCondition(db, 'o.member_id', s.members, v);
  if (members) q = q.where(members);
  if (g.productId) q = q.where('o.product_id', '=', v.productId!);
  if (g.status) q = q.where('o.status', '=', v.status!);
  if (g.start) q = q.where('o.created_at', '>=', v.start!);
  if (g.end) q = q.where('o.created_at', '<=', v.end!);
  return q;
}

/** The orders of a filter (the list, the counts and the export read through it). */
export function filtered(db: Db, f: OrderFilter) {
  const { shape, values } = filterParts(f);
  return filteredShape(db, shape, values);
}

/** Count and total per asset of the filter, from a counter where one answers it. */
async function countByAsset(db: Db, f: OrderFilter): Promise<AssetCount[]> {
  const ranged = f.start !== undefined || f.end !== undefined;
  if (f.number || ranged) {
    if (f.number || f.members || f.productId !== undefined || f.status !== undefined) return rowsByAsset(db, f);
    const stat = { table: 'order_day_stat', sums: { total: 'total_sum' }, where: {} } as const;
    const rows = await sumByAsset(db, stat, f, (start, end) => rowsByAsset(db, { start, end }));
    return rows.map((r) => ({ asset: r.asset, n: r.n, total: r.total }));
  }
  if (f.members && (!Array.isArray(f.members) || f.productId !== undefined)) return rowsByAsset(db, f);
  return countedRows(db, {
    status: f.status,
    product_id: f.productId,
    member_ids: Array.isArray(f.members) ? f.members : undefined,
  });
}

/** Count and total per asset counted from the rows of the filter, compiled once per shape. */
const orderSums = new ShapedQuery(listFilterKey, (db, s: FilterShape, v: FilterValues) =>
  filteredShape(db as Db, s, v)
    .select(['o.asset', (eb) => eb.fn.countAll<number>().as('n'), moneySum('o.total').as('total')])
    .groupBy('o.asset')
    .orderBy('o.asset'),
);

async function rowsByAsset(db: Db, f: OrderFilter): Promise<AssetCount[]> {
  const { shape, values } = filterParts(f);
  const rows = await orderSums.execute(db, shape, values);
  return rows.map((r) => ({ asset: r.asset, n: Number(r.n), total: r.total }));
}

const ORDER_COLUMNS = [
  'o.id',
  'o.member_id',
  'o.product_id',
  'o.sku_id',
  'o.kind',
  'o.asset',
  'o.product_name',
  'o.spec',
  'o.image',
  money('o.unit_price').as('unit_price'),
  'o.quantity',
  money('o.total').as('total'),
  'o.receiver_name',
  'o.receiver_phone',
  'o.receiver_address',
  'o.status',
  'o.express_company',
  'o.tracking_no',
  'o.remark',
  'o.seed_id',
  'o.operator_name',
  'o.created_at',
  'o.shipped_at',
  'o.finished_at',
  'o.updated_at',
] as const;

export interface OrderRow {
  id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  product_id: number;
  sku_id: number;
  kind: number;
  asset: string;
  product_name: string;
  spec: string;
  image: string;
  unit_price: string;
  quantity: number;
  total: string;
  receiver_name: string;
  receiver_phone: string;
  receiver_address: string;
  status: number;
  express_company: string;
  tracking_no: string;
  remark: string;
  seed_id: number | null;
  operator_name: string | null;
  created_at: number;
  shipped_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

/** A page of orders (newest first by default) with the filter's exact count and totals per asset. */
export async function findOrders(db: Kysely<Database>, f: OrderFilter, page: KeysetPageRequest) {
  const [paged, sums] = await Promise.all([
    orderPage.read(db, filterParts(f), { ...page, sort: 'id' }),
    countByAsset(db, f),
  ]);
  return { ...paged, sums };
}

const orderPage = new ShapedPage<FilterShape, FilterValues, 'id', OrderRow>(
  listFilterKey,
  (db, s, v, page) =>
    withMembers<OrderRow>(
      db,
      keysetSlice(filteredShape(db, s.filter, v).select(ORDER_COLUMNS), page, {
        sort: 'o.id',
        id: 'o.id',
        // Ids of several members (or none): their orders are found through the member index and sorted.
        afterLookup: s.filter.members.startsWith('ids') && s.filter.members !== 'ids1',
      }).as('p'),
    ),
  (sort: 'id') => sort,
);

export interface NewOrder {
  memberId: number;
  productId: number;
  skuId: number;
  kind: number;
  asset: string;
  productName: string;
  spec: string;
  image: string;
  unitPrice: bigint;
  quantity: number;
  total: bigint;
  receiverName: string;
  receiverPhone: string;
  receiverAddress: string;
  status: number;
  now: number;
  /** The buyer as he is now (kept on the order). */
  buyer: { uid: string; phone: string; nickname: string };
}

/** Inserts a paid order and queues its order_stat count. */
export async function insertOrder(db: Db, counts: CounterMoves, v: NewOrder): Promise<number> {
  const r = await db
    .insertInto('mall_order')
    .values({
      member_id: v.memberId,
      product_id: v.productId,
      sku_id: v.skuId,
      kind: v.kind,
      asset: v.asset,
      product_name: v.productName,
      spec: v.spec,
      image: v.image,
      unit_price: v.unitPrice,
      quantity: v.quantity,
      total: v.total,
      receiver_name: v.receiverName,
      receiver_phone: v.receiverPhone,
      receiver_address: v.receiverAddress,
      status: v.status,
      buyer_uid: v.buyer.uid,
      buyer_phone: v.buyer.phone,
      buyer_nickname: v.buyer.nickname,
      created_at: v.now,
      finished_at: v.status === 3 ? v.now : null,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  queueOrderStats(db, counts, { ...v, createdAt: v.now }, null, v.status);
  return Number(r.id);
}

export async function setOrderSeed(db: Db, id: number, seedId: number): Promise<void> {
  await db.updateTable('mall_order').set({ seed_id: seedId }).where('id', '=', id).execute();
}

export interface OrderMove {
  from: readonly number[];
  to: number;
  /** Only orders shipped at or before this time (the auto-complete). */
  shippedBy?: number;
  set: {
    express_company?: string;
    tracking_no?: string;
    remark?: string;
    operator_name?: string;
    shipped_at?: number;
    finished_at?: number;
  };
  now: number;
}

/**
 * One conditional UPDATE per allowed source state; queues the order_stat move. Returns what the ledger,
 * the stock and the op log need when this call made the move, undefined otherwise.
 */
export async function moveOrder(trx: Db, counts: CounterMoves, id: number, m: OrderMove) {
  const moved = await updateFromFirst(m.from, (from) => {
    let q = trx
      .updateTable('mall_order')
      .set({ ...m.set, status: m.to, updated_at: m.now })
      .where('id', '=', id)
      .where('status', '=', from);
    if (m.shippedBy !== undefined) q = q.where('shipped_at', '<=', m.shippedBy);
    return q
      .returning(['member_id', 'product_id', 'sku_id', 'asset', 'quantity', 'product_name', money('total').as('total')])
      .executeTakeFirst();
  });
  if (!moved) return undefined;
  const r = moved.row;
  const total = BigInt(r.total);
  queueOrderStats(
    trx,
    counts,
    { memberId: Number(r.member_id), productId: Number(r.product_id), asset: r.asset, total },
    moved.from,
    m.to,
  );
  return {
    memberId: Number(r.member_id),
    skuId: Number(r.sku_id),
    asset: r.asset,
    quantity: Number(r.quantity),
    productName: r.product_name,
    total,
  };
}

export async function orderExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('mall_order').select('id').where('id', '=', id).executeTakeFirst());
}

/** Up to `limit` shipped orders shipped at or before `by`, oldest first (the auto-complete). */
export async function shippedBefore(db: Db, by: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('mall_order')
    .select('id')
    .where('status', '=', 2)
    .where('shipped_at', '<=', by)
    .orderBy('shipped_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}
