/**
 * Orders (DOMAIN.md §3 Mall), the manager's side: the list, its export, and order/opt — ship 1→2,
 * complete 2→3, cancel 1→4 (the payment refunded, bill 12 商城退款, and the stock put back) — each one
 * conditional UPDATE in the transaction that moves the money and the stock, so two managers racing get
 * one success and one 409. Shipped orders complete by themselves after the 'mall' setting's
 * autoCompleteDays (the settlement job's per-minute tick calls completeShippedOrders).
 */
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { AssetDecimals, type Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import {
  OrderActions,
  OrderStatus,
  ProductKind,
  type OrderStatus as Status,
  type ProductKind as Kind,
} from '../../../domain/mall';
import { MallMessages, ORDER_ID_DIGITS, orderIdOf, orderNo, orderNoFormatter } from '../../../domain/mallRules';
import { assetText, formatAsset } from '../../../domain/money';
import { SHANGHAI_OFFSET } from '../../../domain/time';
import type { Actor, Ctx, ExportCtx } from '../../context';
import { countedTransaction, type CounterMoves } from '../../db/counterMoves';
import type { Database } from '../../db/schema';
import {
  arrayRows,
  copyDayNumberCell,
  copyIntCell,
  copyLabelCell,
  copyMoneyCell,
  copyTimeCell,
  exportTimeFormatter,
  shownColumn,
  type ExportSpec,
} from '../../export/export';
import { badInput, conflict, notFound } from '../../errors';
import { pageOf } from '../../db/keyset';
import { parseRange } from '../../range';
import { applyChange } from '../ledger/ledger.service';
import { listMembers, memberColumnsOf } from '../members/members.query';
import { managerAction } from '../oplog/managerAction';
import { getSetting } from '../settings/settings.service';
import { findOrders, type OrderFilter, type OrderRow } from './orders.list';
import { moveOrder, orderExists, shippedBefore } from './orders.repository';
import { orderBatch, orderCopy, ORDER_EXPORT, type OrderExportRow } from './orders.export';
import type { OrderExportQuery, OrderListQuery, OrderOptBody } from './orders.schema';
import { returnStock } from './skus.repository';

const DAY = 86_400_000;

type FilterInput = Omit<Static<typeof OrderListQuery>, 'page' | 'size' | 'after' | 'before' | 'sort' | 'order'>;

/** The number's id and its date's bounds; a number that cannot be one finds nothing. */
function numberFilter(no: string): OrderFilter['number'] {
  const id = orderIdOf(no);
  if (id === null) return { id: -1, start: 0, end: 0 };
  const start = Date.UTC(Number(no.slice(0, 4)), Number(no.slice(4, 6)) - 1, Number(no.slice(6, 8))) - SHANGHAI_OFFSET;
  return { id, start, end: start + DAY };
}

async function filterOf(db: Kysely<Database>, q: FilterInput): Promise<OrderFilter> {
  const { start, end } = parseRange(q);
  const members = await listMembers(db, q.keyword, q.memberId);
  const no = q.orderNo?.trim();
  return {
    number: no ? numberFilter(no) : undefined,
    members,
    productId: q.productId,
    status: q.status,
    start,
    end,
  };
}

function orderView(r: OrderRow) {
  const asset = r.asset as Asset;
  return {
    id: Number(r.id),
    orderNo: orderNo(Number(r.id), Number(r.created_at)),
    ...memberColumnsOf(r),
    productId: Number(r.product_id),
    skuId: Number(r.sku_id),
    kind: r.kind as Kind,
    asset,
    productName: r.product_name,
    spec: r.spec,
    image: r.image,
    unitPrice: formatAsset(r.unit_price, asset),
    quantity: Number(r.quantity),
    total: formatAsset(r.total, asset),
    receiverName: r.receiver_name,
    receiverPhone: r.receiver_phone,
    receiverAddress: r.receiver_address,
    status: r.status as Status,
    expressCompany: r.express_company,
    trackingNo: r.tracking_no,
    remark: r.remark,
    seedId: r.seed_id == null ? null : Number(r.seed_id),
    operatorName: r.operator_name,
    createdAt: Number(r.created_at),
    shippedAt: r.shipped_at == null ? null : Number(r.shipped_at),
    finishedAt: r.finished_at == null ? null : Number(r.finished_at),
    updatedAt: Number(r.updated_at),
  };
}

export type OrderListInput = Static<typeof OrderListQuery>;

export async function listOrders(ctx: Ctx, q: OrderListInput) {
  const { page, size, offset, keyset } = pageOf(q);
  const filter = await filterOf(ctx.db, q);
  const found = await findOrders(ctx.db, filter, { offset, limit: size, order: q.order ?? 'desc', keyset });
  const count = found.sums.reduce((n, s) => n + s.n, 0);
  return {
    list: found.rows.map(orderView),
    total: count,
    page,
    size,
    next: found.next,
    prev: found.prev,
    sum: {
      count,
      totals: found.sums.map((s) => ({ asset: s.asset, total: formatAsset(s.total, s.asset as Asset) })),
    },
  };
}

export type OrderExportInput = Static<typeof OrderExportQuery>;

/** The export of the list's filters (all rows, newest first), for server/export. */
export async function orderExport(
  ctx: ExportCtx,
  q: OrderExportInput,
  batchSize?: number,
): Promise<ExportSpec<OrderExportRow>> {
  const filter = await filterOf(ctx.db, q); // validates the range before any byte is sent
  // One formatter per column: each caches the text of its last second, and the three times differ.
  const [placed, shipped, finished] = [exportTimeFormatter(), exportTimeFormatter(), exportTimeFormatter()];
  const numberOf = orderNoFormatter();
  const c = ORDER_EXPORT;
  const money = (r: OrderExportRow, i: typeof c.unitPrice | typeof c.total) => formatAsset(r[i], r[c.asset] as Asset);
  const shown = (header: string, width: number, field: number) => shownColumn<OrderExportRow>(header, width, field);
  return {
    title: '商城订单',
    columns: [
      {
        header: '订单号',
        width: 22,
        value: (r) => numberOf(Number(r[c.id]), Number(r[c.createdAt])),
        csv: copyDayNumberCell(c.id, c.createdAt, (ms) => orderNo(0, ms).slice(0, 8), ORDER_ID_DIGITS),
      },
      shown('会员UID', 12, c.uid),
      shown('手机号', 14, c.phone),
      shown('昵称', 14, c.nickname),
      shown('商品', 24, c.productName),
      shown('规格', 20, c.spec),
      {
        header: '类型',
        width: 8,
        value: (r) => ProductKind.label(Number(r[c.kind])),
        csv: copyLabelCell(c.kind, ProductKind.label),
      },
      shown('币种', 8, c.asset),
      {
        header: '单价',
        width: 14,
        value: (r) => money(r, c.unitPrice),
        csv: copyMoneyCell(c.unitPrice, c.asset, AssetDecimals),
      },
      { header: '数量', width: 8, value: (r) => Number(r[c.quantity]), csv: copyIntCell(c.quantity) },
      {
        header: '金额',
        width: 14,
        value: (r) => money(r, c.total),
        csv: copyMoneyCell(c.total, c.asset, AssetDecimals),
      },
      shown('收货人', 12, c.receiverName),
      shown('收货电话', 14, c.receiverPhone),
      shown('收货地址', 36, c.receiverAddress),
      {
        header: '状态',
        width: 10,
        value: (r) => OrderStatus.label(Number(r[c.status])),
        csv: copyLabelCell(c.status, OrderStatus.label),
      },
      shown('快递公司', 12, c.expressCompany),
      shown('快递单号', 20, c.trackingNo),
      shown('备注', 20, c.remark),
      {
        header: '下单时间',
        width: 20,
        value: (r) => placed(r[c.createdAt] == null ? null : Number(r[c.createdAt])),
        csv: copyTimeCell(c.createdAt),
      },
      {
        header: '发货时间',
        width: 20,
        value: (r) => shipped(r[c.shippedAt] == null ? null : Number(r[c.shippedAt])),
        csv: copyTimeCell(c.shippedAt),
      },
      {
        header: '完成时间',
        width: 20,
        value: (r) => finished(r[c.finishedAt] == null ? null : Number(r[c.finishedAt])),
        csv: copyTimeCell(c.finishedAt),
      },
    ],
    ...arrayRows(ctx, filter, orderBatch, orderCopy, batchSize),
  };
}

// ---- order/opt ----

export type OrderOptInput = Static<typeof OrderOptBody>;
type Moved = NonNullable<Awaited<ReturnType<typeof moveOrder>>>;

/** The payment back (bill 12 商城退款) and the stock back: what a cancel moves besides the order. */
async function refundOrder(trx: Parameters<typeof applyChange>[0], id: number, m: Moved, now: number, why: string) {
  await returnStock(trx, m.skuId, m.quantity);
  await applyChange(
    trx,
    {
      memberId: m.memberId,
      asset: m.asset as Asset,
      available: m.total,
      type: BillType.mallRefund,
      ref: { kind: 'order', id },
      remark: `商城退款 #${id}：${why}`.slice(0, 200),
    },
    now,
  );
}

export async function optOrder(ctx: Ctx, actor: Actor, input: OrderOptInput) {
  const { id, action } = input;
  const remark = (input.remark ?? '').trim();
  const tracking = (input.trackingNo ?? '').trim();
  if (action === 'ship' && (!input.expressCompany || !tracking)) throw badInput(MallMessages.shipFields);
  if (action === 'cancel' && !remark) throw badInput(MallMessages.remarkRequired);
  const rule = OrderActions[action];
  return managerAction(ctx, actor, async ({ trx, now, counts }) => {
    const set =
      action === 'ship'
        ? { express_company: input.expressCompany, tracking_no: tracking, shipped_at: now }
        : action === 'complete'
          ? { finished_at: now }
          : { finished_at: now, remark };
    const moved = await moveOrder(trx, counts, id, {
      from: rule.from,
      to: rule.to,
      set: { ...set, operator_name: actor.username },
      now,
    });
    if (!moved) {
      if (!(await orderExists(trx, id))) throw notFound(MallMessages.orderNotFound);
      throw conflict(MallMessages.orderHandled);
    }
    if (action === 'cancel') await refundOrder(trx, id, moved, now, remark);
    const money = assetText(moved.total, moved.asset as Asset);
    const summary =
      action === 'ship'
        ? `订单 #${id} 发货：${input.expressCompany} ${tracking}`
        : action === 'complete'
          ? `订单 #${id} 确认完成`
          : `取消订单 #${id}（退款 ${money}，库存退回 ${moved.quantity}）：${remark}`;
    return { result: { id, status: rule.to as Status }, log: { code: 'order:opt', target: `order#${id}`, summary } };
  });
}

/** How many shipped orders one read picks up; each completes in its own transaction. */
export const COMPLETE_BATCH = 500;

/** Completes every order shipped more than the 'mall' setting's autoCompleteDays ago (2 → 3). */
export async function completeShippedOrders(ctx: Ctx, now: number): Promise<{ completed: number }> {
  const { autoCompleteDays } = await getSetting(ctx.db, 'mall');
  const by = now - Math.max(1, Math.floor(autoCompleteDays)) * DAY;
  const rule = OrderActions.complete;
  let completed = 0;
  for (;;) {
    const ids = await shippedBefore(ctx.db, by, COMPLETE_BATCH);
    for (const id of ids) {
      const done = await countedTransaction(ctx.db, async (trx, counts: CounterMoves) =>
        moveOrder(trx, counts, id, {
          from: rule.from,
          to: rule.to,
          shippedBy: by,
          set: { finished_at: now, operator_name: '系统' },
          now,
        }),
      );
      if (done) completed += 1;
    }
    if (ids.length < COMPLETE_BATCH) break;
  }
  return { completed };
}

export { buyProduct, type BuyInput } from './orders.member';
