/** The pledge records' export (xlsx / csv of the list's filters), for server/export. */
import type { Static } from '@sinclair/typebox';
import { ratePercent, rateText } from '../../../domain/economy';
import { formatAsset } from '../../../domain/money';
import { PledgeStatus } from '../../../domain/pledge';
import type { ExportCtx } from '../../context';
import { dateOfDay } from '../../db/dayBuckets';
import { exportTimeFormatter, keysetBatches, readsAhead, type ExportSpec } from '../../export/export';
import { pledgeBatch, type PledgeRow } from './pledge.repository';
import type { PledgeExportQuery } from './pledge.schema';
import { filterOf } from './pledge.service';

export type PledgeExportInput = Static<typeof PledgeExportQuery>;

/** The export of the list's filters (all rows, newest first), for server/export. */
export async function pledgeExport(
  ctx: ExportCtx,
  q: PledgeExportInput,
  batchSize?: number,
): Promise<ExportSpec<PledgeRow>> {
  const filter = await filterOf(ctx.db, q); // validates the range before any byte is sent
  const createdAt = exportTimeFormatter();
  const finishedAt = exportTimeFormatter();
  return {
    title: '质押记录',
    columns: [
      { header: 'ID', width: 10, value: (r) => Number(r.id) },
      { header: '会员UID', width: 12, value: (r) => r.uid },
      { header: '手机号', width: 14, value: (r) => r.phone },
      { header: '昵称', width: 14, value: (r) => r.nickname },
      { header: '质押模式', width: 16, value: (r) => r.mode_name },
      { header: '质押数量(LZ)', width: 16, value: (r) => formatAsset(r.amount, 'LZ') },
      { header: '日收益率', width: 10, value: (r) => ratePercent(rateText(r.rate)) },
      { header: '天数', width: 8, value: (r) => Number(r.days) },
      { header: '每日收益(LZ)', width: 14, value: (r) => formatAsset(r.daily_yield, 'LZ') },
      { header: '总收益(LZ)', width: 14, value: (r) => formatAsset(r.total_yield, 'LZ') },
      { header: '已释放(LZ)', width: 14, value: (r) => formatAsset(r.released, 'LZ') },
      { header: '开始日期', width: 12, value: (r) => dateOfDay(Number(r.start_day)) },
      { header: '到期日期', width: 12, value: (r) => dateOfDay(Number(r.end_day)) },
      { header: '状态', width: 10, value: (r) => PledgeStatus.label(Number(r.status)) },
      { header: '创建时间', width: 20, value: (r) => createdAt(Number(r.created_at)) },
      {
        header: '到期时间',
        width: 20,
        value: (r) => finishedAt(r.finished_at == null ? null : Number(r.finished_at)),
      },
    ],
    batches: keysetBatches(
      (after, limit) => pledgeBatch(ctx.db, filter, after, limit),
      (r) => Number(r.id),
      batchSize,
      readsAhead(ctx),
    ),
  };
}
