/** The withdrawals' export (提现记录 / 提取记录) for server/export: the list's filters, every row. */
import type { Static } from '@sinclair/typebox';
import { formatAsset } from '../../../domain/money';
import { WithdrawAsset, WithdrawStatus, WithdrawType } from '../../../domain/withdrawals';
import type { ExportCtx } from '../../context';
import { exportTimeFormatter, keysetBatches, readsAhead, type ExportSpec } from '../../export/export';
import { parseRange } from '../../range';
import { withdrawalBatch, type WithdrawFilter } from './withdrawals.list';
import type { WithdrawExportQuery } from './withdrawals.schema';

export type WithdrawExportInput = Static<typeof WithdrawExportQuery>;
type WithdrawExportRow = Awaited<ReturnType<typeof withdrawalBatch>>[number];

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
  return {
    title: `${WithdrawType.label(q.type)}记录`,
    columns: [
      { header: 'ID', width: 10, value: (r) => Number(r.id) },
      { header: '会员UID', width: 12, value: (r) => r.uid },
      { header: '手机号', width: 14, value: (r) => r.phone },
      { header: '昵称', width: 14, value: (r) => r.nickname },
      { header: `金额（${asset}）`, width: 16, value: (r) => formatAsset(r.amount, asset) },
      { header: `手续费（${asset}）`, width: 14, value: (r) => formatAsset(r.fee, asset) },
      { header: `实际到账（${asset}）`, width: 16, value: (r) => formatAsset(r.actual, asset) },
      { header: '链', width: 8, value: (r) => r.chain },
      { header: '地址', width: 44, value: (r) => r.address },
      { header: '状态', width: 10, value: (r) => WithdrawStatus.label(r.status) },
      { header: '交易哈希', width: 68, value: (r) => r.tx_hash ?? '' },
      { header: '备注', width: 20, value: (r) => r.remark },
      { header: '审核人', width: 12, value: (r) => r.auditor_name ?? '' },
      { header: '申请时间', width: 20, value: (r) => time(created, r.created_at) },
      { header: '审核时间', width: 20, value: (r) => time(audited, r.audited_at) },
      { header: '打款时间', width: 20, value: (r) => time(paid, r.paid_at) },
    ],
    batches: keysetBatches(
      (after, limit) => withdrawalBatch(ctx.db, filter, after, limit),
      (r) => Number(r.id),
      batchSize,
      readsAhead(ctx),
    ),
  };
}
