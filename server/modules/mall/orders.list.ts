/**
 * The mall order list's reads (the export reads through `filtered` too). Pages by keyset at any depth;
 * the total and per-asset sums come from the counters of ./orders.stats.ts where one answers the filter,
 * else from the rows (an order number, a date range with another filter). Each statement is compiled
 * once per shape. Plain functions taking `db` or `trx` first.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { sumByAsset } from '../../db/dayBuckets';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { ShapedPage } from '../../db/shapedPage';
import { ShapedQuery } from '../../db/shapes';
import { money, moneySum } from '../../db/sql';
import {
  listFilterKey,
  listFilterParts,
  memberIdCondition,
  withMembers,
  type KeywordMembers,
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';
import type { Db } from './orders.repository';
import { countedRows, type AssetCount } from './orders.stats';

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
