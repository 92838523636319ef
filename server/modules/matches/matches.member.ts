/** Matches, the member side (what the member app would call; used by demo data, the simulator and tests). */
import { BillType } from '../../../domain/bills';
import {
  AppealBy,
  MatchMemberActions,
  matchTotal,
  type MatchStatus as Status,
  type PaymentSnapshot,
} from '../../../domain/matches';
import { MemberStatus } from '../../../domain/members';
import { AssetCeiling, formatAsset } from '../../../domain/money';
import type { Ctx } from '../../context';
import { countedTransaction, type CounterMoves } from '../../db/counterMoves';
import { AppError, badInput, conflict, notFound } from '../../errors';
import { applyChange } from '../ledger/ledger.service';
import { listPaymentMethods } from '../payments/payments.service';
import { getSetting } from '../settings/settings.service';
import { insertMatch, lockMembers, matchState, moveMatch, type MatchMove } from './matches.repository';

import { deal, MatchMessages, refusal, type Moved, type Trx } from './matches.moves';

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
