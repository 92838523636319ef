/** The money of each match move: the bills and balances of a deal, a refund, and a refusal's message. */
import type { Transaction } from 'kysely';
import { BillType } from '../../../domain/bills';
import type { Database } from '../../db/schema';
import { AppError, conflict, notFound } from '../../errors';
import { applyChange } from '../ledger/ledger.service';
import { matchState, moveMatch } from './matches.repository';

export const MatchMessages = {
  notFound: '撮合记录不存在',
  handled: '该撮合已处理',
  remarkRequired: '备注不能为空',
  self: '买家和卖家不能是同一会员',
  sellerMissing: '卖家不存在',
  buyerMissing: '买家不存在',
  sellerFrozen: '卖家已冻结',
  buyerFrozen: '买家已冻结',
  noPayment: '卖家没有已通过审核的收款方式',
  badQuantity: '撮合数量必须大于0',
  badPrice: '单价必须大于0',
  tooLarge: '撮合金额超出允许范围',
  totalTooSmall: '撮合总额过小',
  notBuyer: '只有买家可以确认付款',
  notSeller: '只有卖家可以确认收款',
  notParty: '只有买卖双方可以申诉',
  proofRequired: '付款凭证不能为空',
  expired: '该撮合已超时',
  reasonRequired: '申诉原因不能为空',
  reasonTooLong: '申诉原因最多200个字',
} as const;

// ---- the money of each move ----

export type Trx = Transaction<Database>;
export type Moved = NonNullable<Awaited<ReturnType<typeof moveMatch>>>;

/** Seller's frozen LZ to the buyer's available: bills 14 撮合成交 on both sides. */
export async function deal(trx: Trx, id: number, m: Moved, now: number) {
  const ref = { kind: 'match', id };
  await applyChange(
    trx,
    {
      memberId: m.sellerId,
      asset: 'LZ',
      available: 0n,
      frozen: -m.quantity,
      type: BillType.matchDeal,
      ref,
      remark: `撮合成交 #${id}（卖出）`,
    },
    now,
  );
  await applyChange(
    trx,
    {
      memberId: m.buyerId,
      asset: 'LZ',
      available: m.quantity,
      type: BillType.matchDeal,
      ref,
      remark: `撮合成交 #${id}（买入）`,
    },
    now,
  );
}

/** Seller's frozen LZ back to available: bill 15 撮合取消. */
export async function refund(trx: Trx, id: number, m: Moved, now: number, why: string) {
  await applyChange(
    trx,
    {
      memberId: m.sellerId,
      asset: 'LZ',
      available: m.quantity,
      frozen: -m.quantity,
      type: BillType.matchCancel,
      ref: { kind: 'match', id },
      remark: `撮合取消 #${id}${why ? `：${why}` : ''}`.slice(0, 200),
    },
    now,
  );
}

/** Why a member-side move found nothing: missing, not this member's, past the deadline, or already handled. */
export async function refusal(
  trx: Trx,
  id: number,
  check: (s: NonNullable<Awaited<ReturnType<typeof matchState>>>) => AppError | null,
) {
  const s = await matchState(trx, id);
  if (!s) return notFound(MatchMessages.notFound);
  return check(s) ?? conflict(MatchMessages.handled);
}
