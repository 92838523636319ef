/**
 * Withdrawals and extracts (DOMAIN.md §3 Withdrawals): the lists, approve / paid / reject one by one
 * and in batches. The settings and payout wallets per type are in withdrawSettings.service.ts, the
 * member-side requestWithdrawal in requestWithdrawal.service.ts, the export in withdrawals.export.ts. Every transition is one conditional
 * UPDATE inside the transaction that moves the money and writes the op-log row: two managers acting
 * at once get one success and one 409, never two moves.
 */
import type { Static } from '@sinclair/typebox';
import type { WithdrawListQuery, WithdrawOptBody, WithdrawBatchBody } from './withdrawals.schema';
import { BillType } from '../../../domain/bills';
import { chainTxHashMessage, isChain, isChainTxHash } from '../../../domain/deposits';
import { assetText, formatAsset } from '../../../domain/money';
import {
  WithdrawActions,
  WithdrawAsset,
  WithdrawCodes,
  WithdrawStatus,
  WithdrawType,
  type WithdrawAction,
} from '../../../domain/withdrawals';
import type { Actor, Ctx } from '../../context';
import { badInput, conflict, notFound } from '../../errors';
import { pageOf } from '../../db/keyset';
import { parseRange } from '../../range';
import { applyChange } from '../ledger/ledger.service';
import { keywordMembers, memberColumnsOf } from '../members/members.query';
import { managerAction, runBatch } from '../oplog/managerAction';
import { opLogInsertFrom } from '../oplog/oplog.repository';
import { approveInOneStatement, factsOf, type WithdrawalFacts } from './withdrawals.approve';
import { findWithdrawals } from './withdrawals.list';
import { moveWithdrawal, withdrawalExists, withdrawalStatus, type Transition } from './withdrawals.repository';

type WType = WithdrawType;

export const WithdrawMessages = {
  notFound: '提现记录不存在',
  handled: '该提现已处理',
  remarkRequired: '备注不能为空',
  txHashRequired: '交易哈希不能为空',
  memberMissing: '会员不存在',
  memberFrozen: '会员已冻结',
  memberBanned: '该会员已被禁止提现',
  maxBelowMin: '单笔最高金额不能低于单笔最低金额',
  badOpenHours: '开放时间格式不正确',
} as const;

export const typeLabel = (type: number) => WithdrawType.label(type);

export type WithdrawListInput = Static<typeof WithdrawListQuery>;

export async function listWithdrawals(ctx: Ctx, q: WithdrawListInput) {
  const { start, end } = parseRange(q);
  const asset = WithdrawAsset[q.type];
  const { page, size, offset, keyset } = pageOf(q);
  const keyword = q.keyword?.trim() || undefined;
  const { rows, total, sumAmount, sumFee, next, prev } = await findWithdrawals(
    ctx.db,
    {
      type: q.type,
      id: q.id,
      members: keyword ? await keywordMembers(ctx.db, keyword) : undefined,
      status: q.status,
      address: q.address?.trim() || undefined,
      txHash: q.txHash?.trim() || undefined,
      start,
      end,
    },
    { offset, limit: size, sort: q.sort ?? 'id', order: q.order ?? 'desc', keyset },
  );
  return {
    list: rows.map((r) => {
      const a = r.asset as typeof asset;
      return {
        id: Number(r.id),
        ...memberColumnsOf(r),
        type: r.type as WType,
        asset: r.asset,
        amount: formatAsset(r.amount, a),
        fee: formatAsset(r.fee, a),
        actual: formatAsset(r.actual, a),
        chain: r.chain,
        address: r.address,
        status: r.status as 0 | 1 | 2 | 3,
        txHash: r.tx_hash,
        remark: r.remark,
        auditorId: r.auditor_id == null ? null : Number(r.auditor_id),
        auditorName: r.auditor_name,
        auditedAt: r.audited_at == null ? null : Number(r.audited_at),
        paidAt: r.paid_at == null ? null : Number(r.paid_at),
        createdAt: Number(r.created_at),
      };
    }),
    total,
    page,
    size,
    next,
    prev,
    sum: { amount: formatAsset(sumAmount, asset), fee: formatAsset(sumFee, asset), count: total },
  };
}

export type { WithdrawAction };

export type WithdrawOptInput = Static<typeof WithdrawOptBody>;

/** The permission code an action on a record of `type` needs. */
export const codeFor = (type: number, action: WithdrawAction): string =>
  action === 'paid' ? WithdrawCodes[type as WType].pay : WithdrawCodes[type as WType].audit;

/** Checks a permission code; throws (403) when the caller's role lacks it. */
export type Guard = (code: string) => void;

function checkedInput(action: WithdrawAction, remark: string | undefined, txHash: string | undefined, batch: boolean) {
  const r = (remark ?? '').trim();
  const tx = (txHash ?? '').trim();
  if (action === 'reject' && !r) throw badInput(WithdrawMessages.remarkRequired);
  if (action === 'paid' && !tx && !batch) throw badInput(WithdrawMessages.txHashRequired);
  return { remark: r, txHash: tx };
}

/** A transition's op-log row. */
const logEntry = (id: number, type: number, action: WithdrawAction, summary: string) => ({
  code: codeFor(type, action),
  target: `withdrawal#${id}`,
  summary,
});

const approvalSummary = (id: number, type: number, amount: bigint, asset: string) =>
  `审核通过${typeLabel(type)} #${id}（${assetText(amount, asset as 'USDT' | 'LZ')}）`;

/**
 * One record's transition in its own transaction; the type's permission is checked by `guard` first.
 * `read` is the record as read before (the permission check): on PostgreSQL an approval is then tried
 * as one statement first (`approveInOneStatement`), the general path taken when that moved nothing.
 */
async function act(
  ctx: Ctx,
  actor: Actor,
  id: number,
  action: WithdrawAction,
  input: { remark: string; txHash: string },
  read: WithdrawalFacts,
): Promise<number> {
  const now = ctx.clock.now();
  const who = { managerId: actor.managerId, username: actor.username, now };
  const { from, to } = WithdrawActions[action];
  if (action === 'approve' && ctx.kind === 'postgres') {
    const log = logEntry(id, read.type, action, approvalSummary(id, read.type, read.amount, read.asset));
    const audited = { ...who, ...(input.remark ? { remark: input.remark } : {}) };
    if (await approveInOneStatement(ctx.db, id, read, audited, (m) => opLogInsertFrom(m, actor, log, now))) return to;
    // Nothing moved. No transition leads back to 待审核: a record past it now is refused as it would be
    // below; only one still pending (not as read) takes the general path.
    const status = await withdrawalStatus(ctx.db, id);
    if (status === undefined) throw notFound(WithdrawMessages.notFound);
    if (!from.includes(status as WithdrawStatus)) throw conflict(WithdrawMessages.handled);
  }
  const t: Transition =
    action === 'approve'
      ? { from, to, set: { audited: who, ...(input.remark ? { remark: input.remark } : {}) } }
      : action === 'paid'
        ? {
            from,
            to,
            set: {
              paid: who,
              ...(input.txHash ? { tx_hash: input.txHash } : {}),
              ...(input.remark ? { remark: input.remark } : {}),
            },
          }
        : { from, to, set: { audited: who, remark: input.remark } };
  await managerAction(
    ctx,
    actor,
    async ({ trx, counts }) => {
      const moved = await moveWithdrawal(trx, counts, id, t);
      if (!moved)
        throw (await withdrawalExists(trx, id))
          ? conflict(WithdrawMessages.handled)
          : notFound(WithdrawMessages.notFound);
      // The hash's form depends on the record's chain (a batch may mix chains): refused here, the
      // transaction rolls the move back.
      if (action === 'paid' && input.txHash && isChain(moved.chain) && !isChainTxHash(moved.chain, input.txHash)) {
        throw badInput(chainTxHashMessage(moved.chain));
      }
      const amount = BigInt(moved.amount);
      const asset = moved.asset as 'USDT' | 'LZ';
      const memberId = Number(moved.member_id);
      const label = typeLabel(moved.type);
      const shown = assetText(amount, asset);
      let summary: string;
      if (action === 'paid') {
        await applyChange(
          trx,
          {
            memberId,
            asset,
            available: 0n,
            frozen: -amount,
            type: BillType.withdrawSuccess,
            ref: { kind: 'withdrawal', id },
            remark: `${label}成功 #${id}`,
          },
          now,
        );
        summary = `确认${label}打款 #${id}（${shown}）${input.txHash ? `，交易哈希 ${input.txHash}` : ''}`;
      } else if (action === 'reject') {
        await applyChange(
          trx,
          {
            memberId,
            asset,
            available: amount,
            frozen: -amount,
            type: BillType.withdrawReject,
            ref: { kind: 'withdrawal', id },
            remark: `${label}驳回 #${id}：${input.remark}`,
          },
          now,
        );
        summary = `驳回${label} #${id}（${shown}）：${input.remark}`;
      } else {
        summary = approvalSummary(id, moved.type, amount, asset);
      }
      return { result: undefined, log: logEntry(id, moved.type, action, summary) };
    },
    now,
  );
  return t.to;
}

export async function withdrawOpt(ctx: Ctx, actor: Actor, input: WithdrawOptInput, guard: Guard) {
  const checked = checkedInput(input.action, input.remark, input.txHash, false);
  const read = (await factsOf(ctx.db, [input.id])).get(input.id);
  if (read === undefined) throw notFound(WithdrawMessages.notFound);
  guard(codeFor(read.type, input.action));
  const status = await act(ctx, actor, input.id, input.action, checked, read);
  return { id: input.id, status: status as 0 | 1 | 2 | 3 };
}

export type WithdrawBatchInput = Static<typeof WithdrawBatchBody>;

/**
 * Each record in its own transaction (DOMAIN.md, `runBatch`), so one refusal never undoes another's
 * success; the answer says per id what happened. Two records of one member simply wait for each other's
 * account row.
 */
export async function withdrawBatch(ctx: Ctx, actor: Actor, input: WithdrawBatchInput, guard: Guard) {
  const checked = checkedInput(input.action, input.remark, input.txHash, true);
  const records = await factsOf(ctx.db, [...new Set(input.ids)]);
  return runBatch(ctx, input.ids, async (id) => {
    const read = records.get(id);
    if (read === undefined) throw notFound(WithdrawMessages.notFound);
    guard(codeFor(read.type, input.action));
    await act(ctx, actor, id, input.action, checked, read);
  });
}
