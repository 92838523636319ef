/**
 * Matches (DOMAIN.md §3 Matches): LZ sold by one member to another and paid off-platform through the
 * seller's payment method. Member side (what the member app would call; used by the demo data, the
 * simulator and the tests): openMatch freezes the seller's LZ (bill 13 撮合冻结), markPaid 1→2 with the
 * proof, confirmReceipt 2→3 gives the LZ to the buyer (bills 14 撮合成交), appeal 1|2→5, and
 * expireMatches cancels unpaid matches past their deadline (bill 15 撮合取消; the settlement job and
 * its per-minute tick call it). Manager side: the list and arbitration (complete 2|5→3, cancel
 * 1|2|5→4). Every change is one conditional UPDATE in the transaction that moves the money, so two
 * callers racing get one success and one refusal, never two moves.
 */
import type { Static } from '@sinclair/typebox';
import type { Transaction } from 'kysely';
import type { MatchListQuery, MatchOptBody } from './matches.schema';
import { BillType } from '../../../domain/bills';
import {
  AppealBy,
  MatchActions,
  MatchMemberActions,
  matchTotal,
  type MatchStatus as Status,
  type PaymentSnapshot,
} from '../../../domain/matches';
import { MemberStatus } from '../../../domain/members';
import { AssetCeiling, formatAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { countedTransaction, type CounterMoves } from '../../db/counters';
import { pageOf } from '../../db/keyset';
import type { Database } from '../../db/schema';
import { AppError, badInput, conflict, notFound } from '../../errors';
import { parseRange } from '../../range';
import { applyChange } from '../ledger/ledger.service';
import { keywordMembers } from '../members/members.query';
import { managerAction } from '../oplog/managerAction';
import { listPaymentMethods } from '../payments/payments.service';
import { getSetting } from '../settings/settings.service';
import {
  expiredMatchIds,
  findMatches,
  insertMatch,
  lockMembers,
  matchState,
  moveMatch,
  type MatchMove,
} from './matches.repository';

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

const lz = (v: bigint) => `${formatAsset(v, 'LZ')} LZ`;

// ---- list ----

export type MatchListInput = Static<typeof MatchListQuery>;

function paymentOf(text: string): PaymentSnapshot {
  try {
    const p = JSON.parse(text) as Partial<PaymentSnapshot>;
    return {
      type: Number(p.type ?? 0),
      name: String(p.name ?? ''),
      account: String(p.account ?? ''),
      bank: String(p.bank ?? ''),
      qrUrl: String(p.qrUrl ?? ''),
    };
  } catch {
    return { type: 0, name: '', account: '', bank: '', qrUrl: '' };
  }
}

export async function listMatches(ctx: Ctx, q: MatchListInput) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  const seller = q.seller?.trim();
  const buyer = q.buyer?.trim();
  const found = await findMatches(
    ctx.db,
    {
      sellers: seller ? await keywordMembers(ctx.db, seller) : undefined,
      buyers: buyer ? await keywordMembers(ctx.db, buyer) : undefined,
      status: q.status,
      start,
      end,
    },
    { offset, limit: size, order: q.order ?? 'desc', keyset },
  );
  return {
    list: found.rows.map((r) => ({
      id: Number(r.id),
      sellerId: Number(r.seller_id),
      sellerUid: r.seller_uid,
      sellerPhone: r.seller_phone,
      sellerNickname: r.seller_nickname,
      buyerId: Number(r.buyer_id),
      buyerUid: r.buyer_uid,
      buyerPhone: r.buyer_phone,
      buyerNickname: r.buyer_nickname,
      quantity: formatAsset(r.quantity, 'LZ'),
      unitPrice: formatAsset(r.unit_price, 'USDT'),
      total: formatAsset(r.total, 'USDT'),
      payment: paymentOf(r.payment),
      proofUrl: r.proof_url,
      status: r.status as Status,
      appealReason: r.appeal_reason,
      appealBy: r.appeal_by as AppealBy,
      remark: r.remark,
      expiresAt: Number(r.expires_at),
      paidAt: r.paid_at == null ? null : Number(r.paid_at),
      finishedAt: r.finished_at == null ? null : Number(r.finished_at),
      arbiterName: r.arbiter_name,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    })),
    total: found.total,
    page,
    size,
    next: found.next,
    prev: found.prev,
    sum: {
      quantity: formatAsset(found.sumQuantity, 'LZ'),
      total: formatAsset(found.sumTotal, 'USDT'),
      count: found.total,
    },
  };
}

// ---- the money of each move ----

type Trx = Transaction<Database>;
type Moved = NonNullable<Awaited<ReturnType<typeof moveMatch>>>;

/** Seller's frozen LZ to the buyer's available: bills 14 撮合成交 on both sides. */
async function deal(trx: Trx, id: number, m: Moved, now: number) {
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
async function refund(trx: Trx, id: number, m: Moved, now: number, why: string) {
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
async function refusal(
  trx: Trx,
  id: number,
  check: (s: NonNullable<Awaited<ReturnType<typeof matchState>>>) => AppError | null,
) {
  const s = await matchState(trx, id);
  if (!s) return notFound(MatchMessages.notFound);
  return check(s) ?? conflict(MatchMessages.handled);
}

// ---- manager side ----

export type MatchOptInput = Static<typeof MatchOptBody>;

export async function arbitrate(ctx: Ctx, actor: Actor, input: MatchOptInput) {
  const remark = (input.remark ?? '').trim();
  if (input.action === 'cancel' && !remark) throw badInput(MatchMessages.remarkRequired);
  const rule = MatchActions[input.action];
  const id = input.id;
  return managerAction(ctx, actor, async ({ trx, now, counts }) => {
    const moved = await moveMatch(trx, counts, id, {
      from: rule.from,
      to: rule.to,
      set: {
        finished_at: now,
        arbiter_id: actor.managerId,
        arbiter_name: actor.username,
        ...(remark ? { remark } : {}),
      },
      now,
    });
    if (!moved) throw await refusal(trx, id, () => null);
    if (input.action === 'complete') await deal(trx, id, moved, now);
    else await refund(trx, id, moved, now, remark);
    const summary =
      input.action === 'complete'
        ? `仲裁完成撮合 #${id}（${lz(moved.quantity)} 转给买家）${remark ? `：${remark}` : ''}`
        : `仲裁取消撮合 #${id}（${lz(moved.quantity)} 退回卖家）：${remark}`;
    return {
      result: { id, status: rule.to as Status },
      log: { code: 'match:opt', target: `match#${id}`, summary },
    };
  });
}

// ---- member side ----

export interface OpenMatchInput {
  sellerId: number;
  buyerId: number;
  /** LZ minor units. */
  quantity: bigint;
  /** USDT minor units per 1 LZ. */
  unitPrice: bigint;
}

/** The seller's newest approved payment method as the match keeps it, or null when there is none. */
async function paymentSnapshot(ctx: Ctx, memberId: number): Promise<PaymentSnapshot | null> {
  const { list } = await listPaymentMethods(ctx, { memberId, status: 1, size: 1 });
  const p = list[0];
  if (!p) return null;
  return { type: p.type, name: p.holder, account: p.account, bank: p.bank, qrUrl: p.qrUrl };
}

/**
 * Member side: opens a match (待付款) and freezes the seller's LZ (bill 13 撮合冻结); the buyer must pay
 * within the 'match' setting's payTimeoutMinutes.
 */
export async function openMatch(ctx: Ctx, input: OpenMatchInput, now: number = ctx.clock.now()) {
  if (input.sellerId === input.buyerId) throw badInput(MatchMessages.self);
  if (input.quantity <= 0n) throw badInput(MatchMessages.badQuantity);
  if (input.unitPrice <= 0n) throw badInput(MatchMessages.badPrice);
  if (input.quantity > AssetCeiling.LZ || input.unitPrice > AssetCeiling.USDT) throw badInput(MatchMessages.tooLarge);
  const total = matchTotal(input.quantity, input.unitPrice);
  if (total <= 0n) throw badInput(MatchMessages.totalTooSmall);
  if (total > AssetCeiling.USDT) throw badInput(MatchMessages.tooLarge);
  const payment = await paymentSnapshot(ctx, input.sellerId);
  const { payTimeoutMinutes } = await getSetting(ctx.db, 'match');
  const timeout = Math.max(1, Math.floor(payTimeoutMinutes)) * 60_000;
  return countedTransaction(ctx.db, async (trx, counts) => {
    const members = await lockMembers(trx, [input.sellerId, input.buyerId]);
    const seller = members.find((m) => Number(m.id) === input.sellerId);
    const buyer = members.find((m) => Number(m.id) === input.buyerId);
    if (!seller) throw badInput(MatchMessages.sellerMissing);
    if (!buyer) throw badInput(MatchMessages.buyerMissing);
    if (seller.status === MemberStatus.is.frozen) throw badInput(MatchMessages.sellerFrozen);
    if (buyer.status === MemberStatus.is.frozen) throw badInput(MatchMessages.buyerFrozen);
    if (!payment) throw badInput(MatchMessages.noPayment);
    const id = await insertMatch(trx, counts, {
      sellerId: input.sellerId,
      buyerId: input.buyerId,
      quantity: input.quantity,
      unitPrice: input.unitPrice,
      total,
      payment: JSON.stringify(payment),
      expiresAt: now + timeout,
      now,
    });
    await applyChange(
      trx,
      {
        memberId: input.sellerId,
        asset: 'LZ',
        available: -input.quantity,
        frozen: input.quantity,
        type: BillType.matchFreeze,
        ref: { kind: 'match', id },
        remark: `撮合冻结 #${id}`,
      },
      now,
    );
    return { id, status: MatchMemberActions.pay.from[0], total: formatAsset(total, 'USDT'), expiresAt: now + timeout };
  });
}

/** A member-side move in a transaction of its own; `money` moves the LZ once it is made. */
async function memberMove(
  ctx: Ctx,
  id: number,
  move: Omit<MatchMove, 'now'>,
  explain: (s: NonNullable<Awaited<ReturnType<typeof matchState>>>) => AppError | null,
  money?: (trx: Trx, m: Moved, now: number) => Promise<void>,
  now: number = ctx.clock.now(),
) {
  return countedTransaction(ctx.db, async (trx: Trx, counts: CounterMoves) => {
    const moved = await moveMatch(trx, counts, id, { ...move, now });
    if (!moved) throw await refusal(trx, id, explain);
    if (money) await money(trx, moved, now);
    return { id, status: move.to as Status };
  });
}

/** Member side: the buyer says he paid, with the proof image (1 → 2), before the deadline. */
export async function markPaid(
  ctx: Ctx,
  input: { matchId: number; buyerId: number; proofUrl: string },
  now: number = ctx.clock.now(),
) {
  const proof = input.proofUrl.trim();
  if (!proof) throw badInput(MatchMessages.proofRequired);
  const rule = MatchMemberActions.pay;
  return memberMove(
    ctx,
    input.matchId,
    {
      from: rule.from,
      to: rule.to,
      buyerId: input.buyerId,
      expiresAfter: now,
      set: { proof_url: proof.slice(0, 500), paid_at: now },
    },
    (s) =>
      s.buyerId !== input.buyerId
        ? badInput(MatchMessages.notBuyer)
        : s.status === 1 && s.expiresAt <= now
          ? conflict(MatchMessages.expired)
          : null,
    undefined,
    now,
  );
}

/** Member side: the seller confirms he received the money (2 → 3); the LZ goes to the buyer. */
export async function confirmReceipt(
  ctx: Ctx,
  input: { matchId: number; sellerId: number },
  now: number = ctx.clock.now(),
) {
  const rule = MatchMemberActions.confirm;
  return memberMove(
    ctx,
    input.matchId,
    { from: rule.from, to: rule.to, sellerId: input.sellerId, set: { finished_at: now } },
    (s) => (s.sellerId !== input.sellerId ? badInput(MatchMessages.notSeller) : null),
    (trx, m, at) => deal(trx, input.matchId, m, at),
    now,
  );
}

/** Member side: either party appeals (1|2 → 5) with a reason; a manager arbitrates. */
export async function appeal(
  ctx: Ctx,
  input: { matchId: number; memberId: number; reason: string },
  now: number = ctx.clock.now(),
) {
  const reason = input.reason.trim();
  if (!reason) throw badInput(MatchMessages.reasonRequired);
  if ([...reason].length > 200) throw badInput(MatchMessages.reasonTooLong);
  const s = await matchState(ctx.db, input.matchId);
  if (!s) throw notFound(MatchMessages.notFound);
  const side =
    s.sellerId === input.memberId ? AppealBy.is.seller : s.buyerId === input.memberId ? AppealBy.is.buyer : 0;
  if (!side) throw badInput(MatchMessages.notParty);
  const rule = MatchMemberActions.appeal;
  return memberMove(
    ctx,
    input.matchId,
    {
      from: rule.from,
      to: rule.to,
      ...(side === AppealBy.is.seller ? { sellerId: input.memberId } : { buyerId: input.memberId }),
      set: { appeal_reason: reason, appeal_by: side },
    },
    () => null,
    undefined,
    now,
  );
}

/** How many expired matches one read picks up; each is cancelled in its own transaction. */
export const EXPIRE_BATCH = 500;

/**
 * Cancels every unpaid match whose deadline is at or before `now` (1 → 4, LZ back to the seller, bill
 * 15 撮合取消): each its own conditional update, so a buyer's markPaid racing it gets one winner.
 */
export async function expireMatches(ctx: Ctx, now: number): Promise<{ cancelled: number }> {
  const rule = MatchMemberActions.expire;
  let cancelled = 0;
  for (;;) {
    const ids = await expiredMatchIds(ctx.db, now, EXPIRE_BATCH);
    if (!ids.length) break;
    for (const id of ids) {
      const done = await countedTransaction(ctx.db, async (trx, counts) => {
        const moved = await moveMatch(trx, counts, id, {
          from: rule.from,
          to: rule.to,
          expiredBy: now,
          set: { finished_at: now, remark: '超时未付款，系统取消' },
          now,
        });
        if (!moved) return false;
        await refund(trx, id, moved, now, '超时未付款');
        return true;
      });
      if (done) cancelled += 1;
    }
    if (ids.length < EXPIRE_BATCH) break;
  }
  return { cancelled };
}
