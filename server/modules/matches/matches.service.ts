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
import type { MatchListQuery, MatchOptBody } from './matches.schema';
import {
  AppealBy,
  MatchActions,
  MatchMemberActions,
  type MatchStatus as Status,
  type PaymentSnapshot,
} from '../../../domain/matches';
import { assetText, formatAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { countedTransaction } from '../../db/counterMoves';
import { pageOf } from '../../db/keyset';
import { badInput } from '../../errors';
import { parseRange } from '../../range';
import { keywordMembers } from '../members/members.query';
import { managerAction } from '../oplog/managerAction';
import { expiredMatchIds, findMatches, moveMatch } from './matches.repository';

const lz = (v: bigint) => assetText(v, 'LZ');

import { deal, MatchMessages, refund, refusal } from './matches.moves';

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

export { MatchMessages };
export { appeal, confirmReceipt, markPaid, openMatch, type OpenMatchInput } from './matches.member';

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
