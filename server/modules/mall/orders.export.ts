/** What the order export reads: each order as an array, the buyer from the order's own snapshot. */
import { selectArrays, type DbSource } from '../../db/dialect';
import { copyCsv, copyStatement } from '../../db/pgCopy';
import { money } from '../../db/sql';
import type { CopyRows } from '../../export/export';
import { filtered, type OrderFilter } from './orders.list';
import type { Db } from './orders.repository';

/** What the export reads of an order, in this order (arrays, not objects: see selectArrays). */
const EXPORT_SELECT = [
  'o.id',
  'o.created_at',
  'o.buyer_uid',
  'o.buyer_phone',
  'o.buyer_nickname',
  'o.product_name',
  'o.spec',
  'o.kind',
  'o.asset',
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
  'o.shipped_at',
  'o.finished_at',
] as const;

/** One exported order: values in the order of EXPORT_SELECT. */
export type OrderExportRow = readonly [
  id: number,
  createdAt: number,
  uid: string,
  phone: string,
  nickname: string,
  productName: string,
  spec: string,
  kind: number,
  asset: string,
  unitPrice: string,
  quantity: number,
  total: string,
  receiverName: string,
  receiverPhone: string,
  receiverAddress: string,
  status: number,
  expressCompany: string,
  trackingNo: string,
  remark: string,
  shippedAt: number | null,
  finishedAt: number | null,
];

/** Where each value sits in an OrderExportRow. */
export const ORDER_EXPORT = {
  id: 0,
  createdAt: 1,
  uid: 2,
  phone: 3,
  nickname: 4,
  productName: 5,
  spec: 6,
  kind: 7,
  asset: 8,
  unitPrice: 9,
  quantity: 10,
  total: 11,
  receiverName: 12,
  receiverPhone: 13,
  receiverAddress: 14,
  status: 15,
  expressCompany: 16,
  trackingNo: 17,
  remark: 18,
  shippedAt: 19,
  finishedAt: 20,
} as const;

/**
 * One export batch: the filter's orders, newest first, below `afterId`, as arrays. The buyer is the
 * order's own snapshot: no member row is read per order.
 */
export function orderBatch(db: Db, f: OrderFilter, afterId: number | null, limit: number): Promise<OrderExportRow[]> {
  let q = filtered(db, f).select(EXPORT_SELECT);
  if (afterId !== null) q = q.where('o.id', '<', afterId);
  return selectArrays<OrderExportRow>(db, q.orderBy('o.id', 'desc').limit(limit));
}

/**
 * The fields of EXPORT_SELECT as the writers from COPY read them from PostgreSQL's CSV (CopyRows): what
 * the columns format becomes a value, what they show unchanged stays bytes.
 */
const COPY_FIELDS = [
  'int', // id
  'int', // created_at
  'bytes', // buyer_uid
  'bytes', // buyer_phone
  'bytes', // buyer_nickname
  'bytes', // product_name
  'bytes', // spec
  'int', // kind
  'text', // asset
  'text', // unit_price
  'int', // quantity
  'text', // total
  'bytes', // receiver_name
  'bytes', // receiver_phone
  'bytes', // receiver_address
  'int', // status
  'bytes', // express_company
  'bytes', // tracking_no
  'bytes', // remark
  'int', // shipped_at
  'int', // finished_at
] as const satisfies readonly CopyRows['fields'][number][] & { length: typeof EXPORT_SELECT.length };

/** Every order of the filter, newest first, as one COPY on PostgreSQL (the rows orderBatch pages through). */
export function orderCopy(db: Db, source: DbSource, f: OrderFilter): CopyRows {
  const query = filtered(db, f).select(EXPORT_SELECT).orderBy('o.id', 'desc').compile();
  const statement = copyStatement(query); // refuses a value it cannot write now, before any byte
  return { fields: COPY_FIELDS, chunks: (signal) => copyCsv(source, statement, signal) };
}
