/**
 * Transfers between members (DOMAIN.md §3 Members): the read-only list for managers and the
 * member-side `transfer` used by the demo data, the simulator and the tests.
 */
import type { Static } from '@sinclair/typebox';
import type { TransferListQuery } from './transfers.schema';
import type { Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import { MemberStatus } from '../../../domain/members';
import { assetText, formatAsset } from '../../../domain/money';
import { TransferAssets, transferFee, type TransferAsset } from '../../../domain/transfers';
import type { Ctx } from '../../context';
import { countedTransaction } from '../../db/counterMoves';
import { pageOf } from '../../db/keyset';
import { badInput } from '../../errors';
import { parseRange } from '../../range';
import { applyChange } from '../ledger/ledger.service';
import { amountOf } from '../../http/amounts';
import {
  countTransfers,
  findTransfers,
  insertTransfer,
  lockMembers,
  memberByUid,
  statTransfers,
  type TransferFilter,
} from './transfers.repository';

export const TransferMessages = {
  badAsset: '该资产不支持转账',
  fromMissing: '会员不存在',
  toMissing: '收款会员不存在',
  self: '不能转账给自己',
  frozen: '会员已冻结',
  banned: '该会员已被禁止提现，不能转出',
  toFrozen: '收款会员已冻结',
} as const;

export type TransferListInput = Static<typeof TransferListQuery>;

/**
 * The list: exact total and per-asset sums — of an asset/date filter from transfer_stat (+ part-days),
 * of a member's transfers counted directly — and one page in id order, by number or by cursor.
 */
export async function listTransfers(ctx: Ctx, q: TransferListInput) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  const uid = q.uid?.trim();
  let memberId: number | undefined;
  if (uid) {
    const m = await memberByUid(ctx.db, uid);
    // An unknown uid matches nothing.
    if (!m) return { list: [], total: 0, page, size, next: null, prev: null, sum: { count: 0, byAsset: [] } };
    memberId = Number(m.id);
  }
  const filter: TransferFilter = { memberId, asset: q.asset, start, end };
  const [sums, { rows, next, prev }] = await Promise.all([
    memberId === undefined ? statTransfers(ctx.db, filter) : countTransfers(ctx.db, filter),
    findTransfers(ctx.db, filter, { offset, limit: size, order: q.order ?? 'desc', keyset }),
  ]);
  const total = sums.reduce((n, s) => n + s.n, 0);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      fromMemberId: Number(r.from_member_id),
      fromUid: r.from_uid,
      fromNickname: r.from_nickname,
      toMemberId: Number(r.to_member_id),
      toUid: r.to_uid,
      toNickname: r.to_nickname,
      asset: r.asset as TransferAsset,
      amount: formatAsset(r.amount, r.asset as Asset),
      fee: formatAsset(r.fee, r.asset as Asset),
      createdAt: Number(r.created_at),
    })),
    total,
    page,
    size,
    next,
    prev,
    sum: {
      count: total,
      byAsset: sums.map((s) => ({
        asset: s.asset as TransferAsset,
        amount: formatAsset(s.amount, s.asset as Asset),
        fee: formatAsset(s.fee, s.asset as Asset),
      })),
    },
  };
}

// ---- member side ----

export interface TransferInput {
  fromMemberId: number;
  toUid: string;
  asset: string;
  /** Decimal string: what the receiver gets. */
  amount: string;
}

/**
 * Member side: sends `amount` to the member `toUid`. The sender pays amount + fee (transferFee in
 * domain/transfers.ts); the receiver gets amount. One transaction: the transfer row and two ledger
 * changes (bills 转账转出 and 转账转入) — any refusal (balance, state) leaves nothing behind.
 */
export async function transfer(ctx: Ctx, input: TransferInput) {
  if (!(TransferAssets as readonly string[]).includes(input.asset)) throw badInput(TransferMessages.badAsset);
  const asset = input.asset as TransferAsset;
  const amount = amountOf(input.amount, asset, '转账金额');
  const fee = transferFee(amount);
  const now = ctx.clock.now();
  return countedTransaction(ctx.db, async (trx, counts) => {
    const target = await memberByUid(trx, input.toUid.trim());
    const locked = await lockMembers(trx, target ? [input.fromMemberId, Number(target.id)] : [input.fromMemberId]);
    const from = locked.find((m) => Number(m.id) === input.fromMemberId);
    if (!from) throw badInput(TransferMessages.fromMissing);
    if (from.status === MemberStatus.is.frozen) throw badInput(TransferMessages.frozen);
    if (from.status === MemberStatus.is.noWithdraw) throw badInput(TransferMessages.banned);
    const to = target && locked.find((m) => Number(m.id) === Number(target.id));
    if (!to) throw badInput(TransferMessages.toMissing);
    if (Number(to.id) === Number(from.id)) throw badInput(TransferMessages.self);
    if (to.status === MemberStatus.is.frozen) throw badInput(TransferMessages.toFrozen);
    const id = await insertTransfer(trx, counts, {
      fromMemberId: Number(from.id),
      toMemberId: Number(to.id),
      asset,
      amount,
      fee,
      now,
    });
    const shown = assetText(amount, asset);
    const out = await applyChange(
      trx,
      {
        memberId: Number(from.id),
        asset,
        available: -(amount + fee),
        type: BillType.transferOut,
        ref: { kind: 'transfer', id },
        remark: `转账给 ${to.uid}：${shown}，手续费 ${assetText(fee, asset)}`,
      },
      now,
    );
    const inn = await applyChange(
      trx,
      {
        memberId: Number(to.id),
        asset,
        available: amount,
        type: BillType.transferIn,
        ref: { kind: 'transfer', id },
        remark: `来自 ${from.uid} 的转账：${shown}`,
      },
      now,
    );
    return {
      id,
      amount: formatAsset(amount, asset),
      fee: formatAsset(fee, asset),
      outBillId: out.billId,
      inBillId: inn.billId,
    };
  });
}
