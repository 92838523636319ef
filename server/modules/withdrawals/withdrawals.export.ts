/** The withdrawals' export (提现记录 / 提取记录) for server/export: the list's filters, every row. */
import type { Static } from '@sinclair/typebox';
import { formatAsset } from '../../../domain/money';
import { WithdrawAsset, WithdrawStatus, WithdrawType } from '../../../domain/withdrawals';
import type { ExportCtx } from '../../context';
import { arrayRows, exportTimeFormatter, idAndMemberColumns, shownColumn, type ExportSpec } from '../../export/export';
import { parseRange } from '../../range';
import {
  WITHDRAW_EXPORT,
  withdrawalBatch,
  withdrawalCopy,
  type WithdrawExportRow,
  type WithdrawFilter,
} from './withdrawals.list';
import type { WithdrawExportQuery } from './withdrawals.schema';

export type WithdrawExportInput = Static<typeof WithdrawExportQuery>;

/**
 * The export of the list's filters (every row, newest first), for server/export: 提现记录 or 提取记录, the
 * amounts in the type's asset as decimal strings, the address and hash whole.
 */
export function withdrawExport(
  ctx: ExportCtx,
  q: WithdrawExportInput,
  batchSize?: number,
): ExportSpec<WithdrawExportRow> {
  const { start, end } = parseRange(q); // validates the range before any byte is sent
  const keyword = q.keyword?.trim() || undefined;
  const filter: WithdrawFilter = {
    type: q.type,
    id: q.id,
    // A subquery rather than ids: the export reads once, however many members match.
    members: keyword ? { keyword } : undefined,
    status: q.status,
    address: q.address?.trim() || undefined,
    txHash: q.txHash?.trim() || undefined,
    start,
    end,
  };
  const asset = WithdrawAsset[q.type];
  const [created, audited, paid] = [exportTimeFormatter(), exportTimeFormatter(), exportTimeFormatter()];
  const time = (f: (ms: number | null) => string, v: number | string | null) => f(v == null ? null : Number(v));
  const c = WITHDRAW_EXPORT;
  const shown = (header: string, width: number, field: number) => shownColumn<WithdrawExportRow>(header, width, field);
  return {
    title: `${WithdrawType.label(q.type)}记录`,
    columns: [
      ...idAndMemberColumns<WithdrawExportRow>(c),
      { header: `金额（${asset}）`, width: 16, value: (r) => formatAsset(r[c.amount], asset) },
      { header: `手续费（${asset}）`, width: 14, value: (r) => formatAsset(r[c.fee], asset) },
      { header: `实际到账（${asset}）`, width: 16, value: (r) => formatAsset(r[c.actual], asset) },
      shown('链', 8, c.chain),
      shown('地址', 44, c.address),
      { header: '状态', width: 10, value: (r) => WithdrawStatus.label(r[c.status]) },
      shown('交易哈希', 68, c.txHash),
      shown('备注', 20, c.remark),
      shown('审核人', 12, c.auditorName),
      { header: '申请时间', width: 20, value: (r) => time(created, r[c.createdAt]) },
      { header: '审核时间', width: 20, value: (r) => time(audited, r[c.auditedAt]) },
      { header: '打款时间', width: 20, value: (r) => time(paid, r[c.paidAt]) },
    ],
    ...arrayRows(ctx, filter, withdrawalBatch, withdrawalCopy, batchSize),
  };
}
