/**
 * Deposits (DOMAIN.md §3 Deposits): the list, confirm/reject, the deposit settings, and the member-side
 * submitDeposit used by demo data, the simulator and tests. A confirm credits the member exactly once:
 * the pending→confirmed move is one conditional UPDATE inside the transaction that writes the credit.
 * At a million records the list's total and sum of a status come from deposit_stat (moved last in every
 * insert and transition), a keyword is resolved to member ids first, and pages go by keyset cursor.
 */
import type { Static } from '@sinclair/typebox';
import type { DepositExportQuery, DepositListQuery, DepositOptBody } from './deposits.schema';
import { BillType } from '../../../domain/bills';
import {
  chainAddressMessage,
  DepositActions,
  DepositStatus,
  isChainAddress,
  isChainTxHash,
  type Chain,
} from '../../../domain/deposits';
import { MemberStatus } from '../../../domain/members';
import { assetText, formatAsset } from '../../../domain/money';
import type { Actor, Ctx, ExportCtx } from '../../context';
import { countedTransaction } from '../../db/counterMoves';
import { isUniqueViolation } from '../../db/dialect';
import { pageOf } from '../../db/keyset';
import { arrayRows, exportTimeFormatter, idAndMemberColumns, shownColumn, type ExportSpec } from '../../export/export';
import { AppError, badInput, conflict, notFound } from '../../errors';
import { parseRange } from '../../range';
import { applyChange } from '../ledger/ledger.service';
import { managerAction } from '../oplog/managerAction';
import { getSettingWithMeta, getSetting, putSetting, type DepositSetting } from '../settings/settings.service';
import { amountOf, canonicalAmount } from '../../http/amounts';
import { keywordMembers, memberColumnsOf } from '../members/members.query';
import {
  DEPOSIT_EXPORT,
  depositBatch,
  depositCopy,
  findDeposits,
  type DepositExportRow,
  type DepositFilter,
} from './deposits.list';
import { depositExists, enabledAccountsOn, insertDeposit, moveDeposit } from './deposits.repository';

export const DepositMessages = {
  notFound: '充值记录不存在',
  handled: '该充值已处理',
  remarkRequired: '备注不能为空',
  closed: '充值通道已关闭',
  chainClosed: '该链暂未开放充值',
  noAccount: '该链暂无收款地址',
  toAddressUnknown: '收款地址不存在或已停用',
  duplicateTx: '该交易哈希已提交',
  badTxHash: '交易哈希格式不正确',
  memberMissing: '会员不存在',
  memberFrozen: '会员已冻结',
  chainsRequired: '开放充值时至少选择一条链',
} as const;

export type DepositListInput = Static<typeof DepositListQuery>;

export async function listDeposits(ctx: Ctx, q: DepositListInput) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  const keyword = q.keyword?.trim() || undefined;
  const { rows, total, sumAmount, next, prev } = await findDeposits(
    ctx.db,
    {
      id: q.id,
      members: keyword ? await keywordMembers(ctx.db, keyword) : undefined,
      txHash: q.txHash?.trim() || undefined,
      chain: q.chain,
      status: q.status,
      start,
      end,
    },
    { offset, limit: size, sort: q.sort ?? 'id', order: q.order ?? 'desc', keyset },
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      ...memberColumnsOf(r),
      chain: r.chain as Chain,
      fromAddress: r.from_address,
      toAddress: r.to_address,
      amount: formatAsset(r.amount, 'USDT'),
      txHash: r.tx_hash,
      proofUrl: r.proof_url,
      status: r.status as 0 | 1 | 2,
      remark: r.remark,
      auditorId: r.auditor_id == null ? null : Number(r.auditor_id),
      auditorName: r.auditor_name,
      auditedAt: r.audited_at == null ? null : Number(r.audited_at),
      createdAt: Number(r.created_at),
    })),
    total,
    page,
    size,
    next,
    prev,
    sum: { amount: formatAsset(sumAmount, 'USDT'), count: total },
  };
}

export type DepositExportInput = Static<typeof DepositExportQuery>;

/** The export of the list's filters (every row, newest first), for server/export. */
export function depositExport(ctx: ExportCtx, q: DepositExportInput, batchSize?: number): ExportSpec<DepositExportRow> {
  const { start, end } = parseRange(q); // validates the range before any byte is sent
  const keyword = q.keyword?.trim() || undefined;
  const filter: DepositFilter = {
    id: q.id,
    // A subquery rather than ids: the export reads once, however many members match.
    members: keyword ? { keyword } : undefined,
    txHash: q.txHash?.trim() || undefined,
    chain: q.chain,
    status: q.status,
    start,
    end,
  };
  const [created, audited] = [exportTimeFormatter(), exportTimeFormatter()];
  const c = DEPOSIT_EXPORT;
  const shown = (header: string, width: number, field: number) => shownColumn<DepositExportRow>(header, width, field);
  return {
    title: '充值记录',
    columns: [
      ...idAndMemberColumns<DepositExportRow>(c),
      shown('链', 8, c.chain),
      { header: '金额（USDT）', width: 16, value: (r) => formatAsset(r[c.amount], 'USDT') },
      shown('付款地址', 44, c.fromAddress),
      shown('收款地址', 44, c.toAddress),
      shown('交易哈希', 68, c.txHash),
      { header: '状态', width: 10, value: (r) => DepositStatus.label(r[c.status]) },
      shown('备注', 20, c.remark),
      shown('审核人', 12, c.auditorName),
      { header: '提交时间', width: 20, value: (r) => created(Number(r[c.createdAt])) },
      {
        header: '审核时间',
        width: 20,
        value: (r) => audited(r[c.auditedAt] == null ? null : Number(r[c.auditedAt])),
      },
    ],
    ...arrayRows(ctx, filter, depositBatch, depositCopy, batchSize),
  };
}

export type DepositOptInput = Static<typeof DepositOptBody>;

/** confirm 0→1 (credits available, bill 充值) or reject 0→2 (remark required); anything else 409. */
export async function depositOpt(ctx: Ctx, actor: Actor, input: DepositOptInput) {
  const remark = (input.remark ?? '').trim();
  if (input.action === 'reject' && !remark) throw badInput(DepositMessages.remarkRequired);
  const t = DepositActions[input.action];
  const to = t.to;
  return managerAction(ctx, actor, async ({ trx, now, counts }) => {
    const moved = await moveDeposit(trx, counts, input.id, t, {
      managerId: actor.managerId,
      username: actor.username,
      remark,
      now,
    });
    if (!moved) {
      throw (await depositExists(trx, input.id))
        ? conflict(DepositMessages.handled)
        : notFound(DepositMessages.notFound);
    }
    const amount = BigInt(moved.amount);
    if (to === DepositStatus.is.confirmed) {
      await applyChange(
        trx,
        {
          memberId: Number(moved.member_id),
          asset: 'USDT',
          available: amount,
          type: BillType.deposit,
          ref: { kind: 'deposit', id: input.id },
          remark: remark || `充值 #${input.id}`,
        },
        now,
      );
    }
    return {
      result: { id: input.id, status: to },
      log: {
        code: 'deposit:audit',
        target: `deposit#${input.id}`,
        summary:
          to === DepositStatus.is.confirmed
            ? `确认充值 #${input.id}（${assetText(amount, 'USDT')}）`
            : `驳回充值 #${input.id}（${assetText(amount, 'USDT')}）：${remark}`,
      },
    };
  });
}

export async function getDepositSetting(ctx: Ctx) {
  const { value, meta } = await getSettingWithMeta(ctx.db, 'deposit');
  return { ...value, ...meta };
}

export async function saveDepositSetting(ctx: Ctx, actor: Actor, input: DepositSetting) {
  const value: DepositSetting = {
    open: input.open,
    min: canonicalAmount(input.min, 'USDT', '最低充值金额'),
    chains: [...new Set(input.chains)],
    tips: input.tips.trim(),
  };
  if (value.open && value.chains.length === 0) throw badInput(DepositMessages.chainsRequired);
  await managerAction(ctx, actor, async ({ trx, now }) => {
    await putSetting(trx, 'deposit', value, actor.username, now);
    return {
      result: undefined,
      log: {
        code: 'depositSetting:update',
        target: 'setting:deposit',
        summary: `修改充值设置：${value.open ? '开启' : '关闭'}，最低 ${value.min} USDT，开放链 ${value.chains.join('、') || '无'}`,
      },
    };
  });
  return getDepositSetting(ctx);
}

export interface SubmitDepositInput {
  memberId: number;
  chain: Chain;
  fromAddress: string;
  /** One of the enabled receiving addresses of the chain; the first enabled one when omitted. */
  toAddress?: string;
  amount: string;
  txHash: string;
  proofUrl?: string;
}

/** Member side: a member reports a transfer to a receiving address. Respects the deposit settings. */
export async function submitDeposit(ctx: Ctx, input: SubmitDepositInput): Promise<{ id: number }> {
  const setting = await getSetting(ctx.db, 'deposit');
  if (!setting.open) throw badInput(DepositMessages.closed);
  if (!setting.chains.includes(input.chain)) throw badInput(DepositMessages.chainClosed);
  const amount = amountOf(input.amount, 'USDT', '充值金额');
  const min = amountOf(setting.min, 'USDT', '最低充值金额', { allowZero: true });
  if (amount < min) throw badInput(`充值金额不能低于${setting.min}`);
  const fromAddress = input.fromAddress.trim();
  if (!isChainAddress(input.chain, fromAddress)) throw badInput(`付款${chainAddressMessage(input.chain)}`);
  // Hex is case-insensitive: one spelling only, so the unique index sees the same transaction twice.
  const txHash = input.txHash.trim().toLowerCase();
  if (!isChainTxHash(input.chain, txHash)) throw badInput(DepositMessages.badTxHash);
  const accounts = await enabledAccountsOn(ctx.db, input.chain);
  if (accounts.length === 0) throw badInput(DepositMessages.noAccount);
  const toAddress = input.toAddress?.trim() || accounts[0].address;
  if (!accounts.some((a) => a.address === toAddress)) throw badInput(DepositMessages.toAddressUnknown);
  const member = await ctx.db.selectFrom('member').select('status').where('id', '=', input.memberId).executeTakeFirst();
  if (!member) throw badInput(DepositMessages.memberMissing);
  if (member.status === MemberStatus.is.frozen) throw badInput(DepositMessages.memberFrozen);
  try {
    // The deposit and its count in deposit_stat in one transaction, the count last. A duplicate hash
    // fails the insert (unique index) and rolls the whole transaction back.
    const id = await countedTransaction(ctx.db, (trx, counts) =>
      insertDeposit(trx, counts, {
        memberId: input.memberId,
        chain: input.chain,
        fromAddress,
        toAddress,
        amount,
        txHash,
        proofUrl: (input.proofUrl ?? '').trim(),
        now: ctx.clock.now(),
      }),
    );
    return { id };
  } catch (err) {
    if (!(err instanceof AppError) && isUniqueViolation(err)) throw badInput(DepositMessages.duplicateTx);
    throw err;
  }
}
