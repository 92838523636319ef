/**
 * Payment methods (DOMAIN.md §3 Members): the list and its export, the manager's review (approve,
 * reject with a remark, disable, enable: each one conditional UPDATE with its op-log row in one
 * transaction), and the member-side addPaymentMethod used by the demo data and the tests.
 */
import type { Static } from '@sinclair/typebox';
import type { PaymentOptBody } from './payments.schema';
import { chainAddressMessage, isChainAddress } from '../../../domain/deposits';
import {
  PaymentActions,
  PaymentStatus,
  PaymentType,
  type PaymentAction,
  type PaymentStatus as PStatus,
  type PaymentType as PType,
} from '../../../domain/payments';
import type { Actor, Ctx, ExportCtx } from '../../context';
import { badInput, conflict, notFound } from '../../errors';
import { countedTransaction } from '../../db/counterMoves';
import { pageOf } from '../../db/keyset';
import { arrayRows, exportTimeFormatter, idAndMemberColumns, shownColumn, type ExportSpec } from '../../export/export';
import { parseRange } from '../../range';
import { managerAction } from '../oplog/managerAction';
import { keywordMembers, memberColumnsOf } from '../members/members.query';
import {
  findPaymentMethods,
  insertPaymentMethod,
  memberExists,
  movePaymentMethod,
  paymentMethodBatch,
  paymentMethodCopy,
  paymentMethodStatus,
  PAYMENT_EXPORT_INDEX,
  type PaymentExportRow,
  type PaymentFilter,
  type PaymentMethodRow,
} from './payments.repository';

export const PaymentMessages = {
  notFound: '收款方式不存在',
  remarkRequired: '驳回原因不能为空',
  reviewed: '该收款方式已审核',
  notApproved: '只能禁用已通过的收款方式',
  notDisabled: '只能启用已禁用的收款方式',
  memberMissing: '会员不存在',
  holderRequired: '姓名不能为空',
  accountRequired: '账号不能为空',
  badCard: '银行卡号格式不正确',
  bankRequired: '开户银行不能为空',
  qrRequired: '收款二维码不能为空',
} as const;

/** Why a transition found the method in another state. */
const CONFLICT: Record<PaymentAction, string> = {
  approve: PaymentMessages.reviewed,
  reject: PaymentMessages.reviewed,
  disable: PaymentMessages.notApproved,
  enable: PaymentMessages.notDisabled,
};

export interface PaymentFilterInput {
  keyword?: string;
  memberId?: number;
  type?: number;
  status?: number;
  start?: string;
  end?: string;
}

function filterOf(q: PaymentFilterInput): PaymentFilter {
  const { start, end } = parseRange(q);
  return {
    keyword: q.keyword?.trim() || undefined,
    memberId: q.memberId,
    type: q.type,
    status: q.status,
    start,
    end,
  };
}

function toView(r: PaymentMethodRow) {
  return {
    id: Number(r.id),
    ...memberColumnsOf(r),
    type: r.type as PType,
    holder: r.holder,
    account: r.account,
    bank: r.bank,
    branch: r.branch,
    qrUrl: r.qr_url,
    status: r.status as PStatus,
    remark: r.remark,
    auditorName: r.auditor_name,
    auditedAt: r.audited_at == null ? null : Number(r.audited_at),
    createdAt: Number(r.created_at),
  };
}

export async function listPaymentMethods(
  ctx: Ctx,
  q: PaymentFilterInput & { page?: number; size?: number; order?: 'asc' | 'desc'; after?: string; before?: string },
) {
  const { page, size, offset, keyset } = pageOf(q);
  // The list resolves a keyword to member ids first (the export keeps it as a subquery).
  const { keyword, ...filter } = filterOf(q);
  const { rows, total, next, prev } = await findPaymentMethods(
    ctx.db,
    { ...filter, members: keyword ? await keywordMembers(ctx.db, keyword) : undefined },
    { offset, limit: size, order: q.order ?? 'desc', keyset },
  );
  return { list: rows.map(toView), total, page, size, next, prev };
}

/**
 * The export of the list's filters (all rows, newest first), for server/export. The columns read the
 * repository's row arrays by position (no object per row), times through a per-column formatter.
 */
export function paymentExport(ctx: ExportCtx, q: PaymentFilterInput, batchSize?: number): ExportSpec<PaymentExportRow> {
  const filter = filterOf(q); // validates the range before any byte is sent
  const auditedAt = exportTimeFormatter();
  const createdAt = exportTimeFormatter();
  const c = PAYMENT_EXPORT_INDEX;
  const shown = (header: string, width: number, field: number) => shownColumn<PaymentExportRow>(header, width, field);
  return {
    title: '收款方式',
    columns: [
      ...idAndMemberColumns<PaymentExportRow>(c),
      { header: '类型', width: 12, value: (r) => PaymentType.label(r[c.type]) },
      shown('姓名', 12, c.holder),
      shown('账号', 36, c.account),
      shown('开户银行', 16, c.bank),
      shown('开户支行', 18, c.branch),
      shown('收款二维码', 30, c.qr_url),
      { header: '状态', width: 10, value: (r) => PaymentStatus.label(r[c.status]) },
      shown('备注', 20, c.remark),
      shown('审核人', 12, c.auditor_name),
      {
        header: '审核时间',
        width: 20,
        value: (r) => auditedAt(r[c.audited_at] == null ? null : Number(r[c.audited_at])),
      },
      { header: '添加时间', width: 20, value: (r) => createdAt(Number(r[c.created_at])) },
    ],
    ...arrayRows(ctx, filter, paymentMethodBatch, paymentMethodCopy, batchSize),
  };
}

export type PaymentOptInput = Static<typeof PaymentOptBody>;

export async function paymentOpt(ctx: Ctx, actor: Actor, input: PaymentOptInput) {
  const remark = (input.remark ?? '').trim();
  if (input.action === 'reject' && !remark) throw badInput(PaymentMessages.remarkRequired);
  const rule = PaymentActions[input.action];
  const review = input.action === 'approve' || input.action === 'reject';
  return managerAction(ctx, actor, async ({ trx, now, counts }) => {
    const moved = await movePaymentMethod(
      trx,
      counts,
      input.id,
      {
        from: rule.from,
        to: rule.to,
        ...(remark || input.action === 'reject' ? { remark } : {}),
        ...(review ? { audited: { managerId: actor.managerId, username: actor.username } } : {}),
      },
      now,
    );
    if (!moved) {
      const status = await paymentMethodStatus(trx, input.id);
      throw status === undefined ? notFound(PaymentMessages.notFound) : conflict(CONFLICT[input.action]);
    }
    const what = `${PaymentType.label(moved.type)} ${moved.account}`;
    return {
      result: { id: input.id, status: rule.to as PStatus },
      log: {
        code: 'payment:opt',
        target: `payment#${input.id}`,
        summary: `${rule.label}收款方式 #${input.id}（${what}）${remark ? `：${remark}` : ''}`,
      },
    };
  });
}

// ---- member side ----

export interface AddPaymentMethodInput {
  memberId: number;
  type: PType;
  holder: string;
  account: string;
  /** Bank and branch: type 1 (银行卡). */
  bank?: string;
  branch?: string;
  /** QR image URL: types 2 (支付宝) and 3 (微信). */
  qrUrl?: string;
}

/** Member side: adds a payment method, waiting for review (status 0 待审核). */
export async function addPaymentMethod(ctx: Ctx, input: AddPaymentMethodInput) {
  const holder = input.holder.trim();
  const account = input.account.trim().replace(input.type === 1 ? /\s+/g : /^$/, '');
  const bank = input.type === 1 ? (input.bank ?? '').trim() : '';
  const branch = input.type === 1 ? (input.branch ?? '').trim() : '';
  const qrUrl = input.type === 2 || input.type === 3 ? (input.qrUrl ?? '').trim() : '';
  if (!holder || holder.length > 50) throw badInput(PaymentMessages.holderRequired);
  if (!account || account.length > 100) throw badInput(PaymentMessages.accountRequired);
  if (input.type === 1) {
    if (!/^\d{12,19}$/.test(account)) throw badInput(PaymentMessages.badCard);
    if (!bank) throw badInput(PaymentMessages.bankRequired);
  }
  if ((input.type === 2 || input.type === 3) && !qrUrl) throw badInput(PaymentMessages.qrRequired);
  if (input.type === 4 && !isChainAddress('TRC20', account)) throw badInput(chainAddressMessage('TRC20'));
  if (!(await memberExists(ctx.db, input.memberId))) throw badInput(PaymentMessages.memberMissing);
  // The method and its count in payment_stat in one transaction, the count last.
  const id = await countedTransaction(ctx.db, (trx, counts) =>
    insertPaymentMethod(trx, counts, {
      memberId: input.memberId,
      type: input.type,
      holder,
      account,
      bank: bank.slice(0, 100),
      branch: branch.slice(0, 100),
      qrUrl: qrUrl.slice(0, 500),
      now: ctx.clock.now(),
    }),
  );
  return { id, status: PaymentStatus.is.pending };
}
