/**
 * All SQL that writes mall orders (the list's reads are in ./orders.list.ts). Every state change is one
 * conditional UPDATE per allowed source state (`updateFromFirst`), and queues its counter moves.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { CounterMoves } from '../../db/counterMoves';
import { money } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';
import { queueOrderStats } from './orders.stats';

export { mallStatViolations, productOrderCounts, rebuildMallStats } from './orders.stats';

export type Db = Kysely<Database> | Transaction<Database>;

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
