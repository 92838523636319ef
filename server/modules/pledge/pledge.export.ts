/** The pledge records' export (xlsx / csv of the list's filters), for server/export. */
import type { Static } from '@sinclair/typebox';
import { ratePercent, rateText } from '../../../domain/economy';
import { formatAsset } from '../../../domain/money';
import { PledgeStatus } from '../../../domain/pledge';
import type { ExportCtx } from '../../context';
import { dateOfDay } from '../../db/dayBuckets';
import { selectArrays, type DbSource } from '../../db/dialect';
import { copyCsv, copyStatement } from '../../db/pgCopy';
import { money } from '../../db/sql';
import {
  arrayRows,
  exportTimeFormatter,
  idAndMemberColumns,
  remembered,
  shownColumn,
  type CopyRows,
  type ExportSpec,
} from '../../export/export';
import { filtered, type Db, type PledgeFilter } from './pledge.repository';
import type { PledgeExportQuery } from './pledge.schema';
import { filterOf } from './pledge.service';

export type PledgeExportInput = Static<typeof PledgeExportQuery>;

/** What the export shows of a pledge, in this order (arrays, not objects: see selectArrays). */
const EXPORT_SELECT = [
  'p.id',
  'm.uid',
  'm.phone',
  'm.nickname',
  'p.mode_name',
  money('p.amount').as('amount'),
  money('p.rate').as('rate'),
  'p.days',
  money('p.daily_yield').as('daily_yield'),
  money('p.total_yield').as('total_yield'),
  money('p.released').as('released'),
  'p.start_day',
  'p.end_day',
  'p.status',
  'p.created_at',
  'p.finished_at',
] as const;

/** One exported pledge: values in the order of EXPORT_SELECT. */
export type PledgeExportRow = readonly [
  id: number,
  uid: string,
  phone: string,
  nickname: string,
  modeName: string,
  amount: string,
  rate: string,
  days: number,
  dailyYield: string,
  totalYield: string,
  released: string,
  startDay: number,
  endDay: number,
  status: number,
  createdAt: number,
  finishedAt: number | null,
];

/** Where each value sits in a PledgeExportRow. */
const PLEDGE_EXPORT = {
  id: 0,
  uid: 1,
  phone: 2,
  nickname: 3,
  modeName: 4,
  amount: 5,
  rate: 6,
  days: 7,
  dailyYield: 8,
  totalYield: 9,
  released: 10,
  startDay: 11,
  endDay: 12,
  status: 13,
  createdAt: 14,
  finishedAt: 15,
} as const;

const exportQuery = (db: Db, f: PledgeFilter) =>
  filtered(db, f).innerJoin('member as m', 'm.id', 'p.member_id').select(EXPORT_SELECT);

/** One batch of the export: the filter's pledges with id < afterId, newest first, with their members. */
export function pledgeBatch(db: Db, f: PledgeFilter, afterId: number | null, limit: number) {
  let q = exportQuery(db, f);
  if (afterId !== null) q = q.where('p.id', '<', afterId);
  return selectArrays<PledgeExportRow>(db, q.orderBy('p.id', 'desc').limit(limit));
}

/** The fields of EXPORT_SELECT as the writers from COPY read them from PostgreSQL's CSV (CopyRows). */
const COPY_FIELDS = [
  'int', // id
  'bytes', // uid
  'bytes', // phone
  'bytes', // nickname
  'bytes', // mode_name
  'text', // amount
  'text', // rate
  'int', // days
  'text', // daily_yield
  'text', // total_yield
  'text', // released
  'int', // start_day
  'int', // end_day
  'int', // status
  'int', // created_at
  'int', // finished_at
] as const satisfies readonly CopyRows['fields'][number][] & { length: typeof EXPORT_SELECT.length };

/** Every pledge of the filter, newest first, as one COPY on PostgreSQL (the rows pledgeBatch pages through). */
export function pledgeCopy(db: Db, source: DbSource, f: PledgeFilter): CopyRows {
  const statement = copyStatement(exportQuery(db, f).orderBy('p.id', 'desc').compile());
  return { fields: COPY_FIELDS, chunks: (signal) => copyCsv(source, statement, signal) };
}

/** The export of the list's filters (all rows, newest first), for server/export. */
export async function pledgeExport(
  ctx: ExportCtx,
  q: PledgeExportInput,
  batchSize?: number,
): Promise<ExportSpec<PledgeExportRow>> {
  const filter = await filterOf(ctx.db, q); // validates the range before any byte is sent
  const createdAt = exportTimeFormatter();
  const finishedAt = exportTimeFormatter();
  const percent = remembered((rate: string) => ratePercent(rateText(rate)));
  const date = remembered(dateOfDay);
  const c = PLEDGE_EXPORT;
  const lz = (r: PledgeExportRow, i: typeof c.amount | typeof c.dailyYield | typeof c.totalYield | typeof c.released) =>
    formatAsset(r[i], 'LZ');
  return {
    title: '质押记录',
    columns: [
      ...idAndMemberColumns<PledgeExportRow>(c),
      shownColumn<PledgeExportRow>('质押模式', 16, c.modeName),
      { header: '质押数量(LZ)', width: 16, value: (r) => lz(r, c.amount) },
      { header: '日收益率', width: 10, value: (r) => percent(r[c.rate]) },
      { header: '天数', width: 8, value: (r) => Number(r[c.days]) },
      { header: '每日收益(LZ)', width: 14, value: (r) => lz(r, c.dailyYield) },
      { header: '总收益(LZ)', width: 14, value: (r) => lz(r, c.totalYield) },
      { header: '已释放(LZ)', width: 14, value: (r) => lz(r, c.released) },
      { header: '开始日期', width: 12, value: (r) => date(Number(r[c.startDay])) },
      { header: '到期日期', width: 12, value: (r) => date(Number(r[c.endDay])) },
      { header: '状态', width: 10, value: (r) => PledgeStatus.label(Number(r[c.status])) },
      { header: '创建时间', width: 20, value: (r) => createdAt(Number(r[c.createdAt])) },
      {
        header: '到期时间',
        width: 20,
        value: (r) => finishedAt(r[c.finishedAt] == null ? null : Number(r[c.finishedAt])),
      },
    ],
    ...arrayRows(ctx, filter, pledgeBatch, pledgeCopy, batchSize),
  };
}
