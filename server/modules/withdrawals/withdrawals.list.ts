/**
 * The withdrawal list's and export's reads: a filter (its shape and values), a page and the exact total
 * and sums (withdrawal_stat where it answers), each compiled once per shape. Plain functions taking
 * `db` or `trx` first.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { selectArrays, type DbSource } from '../../db/dialect';
import { copyCsv, copyStatement } from '../../db/pgCopy';
import type { CopyRows } from '../../export/export';
import { readCounter } from '../../db/counters';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { ShapedPage } from '../../db/shapedPage';
import { ShapedQuery } from '../../db/shapes';
import { money, moneySum } from '../../db/sql';
import {
  listFilterKey,
  listFilterParts,
  memberIdCondition,
  withMembers,
  type KeywordMembers,
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';
import { WITHDRAWAL_STAT } from './withdrawals.repository';

type Db = Kysely<Database> | Transaction<Database>;

export interface WithdrawFilter {
  type: number;
  /** One record (a link from its bill). */
  id?: number;
  /** The members whose records are listed: ids (a keyword resolved first), or a subquery when many. */
  members?: KeywordMembers;
  status?: number;
  address?: string;
  txHash?: string;
  start?: number;
  end?: number;
}

const SORT_COLUMNS = {
  id: sql.ref('w.id'),
  createdAt: sql.ref('w.created_at'),
  amount: sql.ref('w.amount'),
  auditedAt: sql`coalesce(w.audited_at, 0)`,
  paidAt: sql`coalesce(w.paid_at, 0)`,
} as const;
export type WithdrawSort = keyof typeof SORT_COLUMNS;

type FilterShape = ListFilterShape<WithdrawFilter>;
type FilterValues = ListFilterValues<WithdrawFilter>;

function filteredShape(db: Db, s: FilterShape, v: FilterValues) {
  const g = s.given;
  let q = db.selectFrom('withdrawal as w').where('w.type', '=', v.type);
  if (g.id) q = q.where('w.id', '=', v.id!);
  const members = memberIdCondition(db, 'w.member_id', s.members, v);
  if (members) q = q.where(members);
  if (g.status) q = q.where('w.status', '=', v.status!);
  if (g.address) q = q.where('w.address', '=', v.address!);
  if (g.txHash) q = q.where('w.tx_hash', '=', v.txHash!);
  if (g.start) q = q.where('w.created_at', '>=', v.start!);
  if (g.end) q = q.where('w.created_at', '<=', v.end!);
  return q;
}

function filtered(db: Db, f: WithdrawFilter) {
  const { shape, values } = listFilterParts(f);
  return filteredShape(db, shape, values);
}

/** Only a type and a status: withdrawal_stat answers count and sums. */
const countedByStat = (f: WithdrawFilter) =>
  f.id === undefined && !f.members && !f.address && !f.txHash && f.start === undefined && f.end === undefined;

/** The count and sums of a filter withdrawal_stat cannot answer, compiled once per shape. */
const withdrawalSums = new ShapedQuery(listFilterKey, (db, s: FilterShape, v: FilterValues) =>
  filteredShape(db as Db, s, v).select((eb) => [
    eb.fn.countAll<number>().as('n'),
    moneySum('w.amount').as('amount'),
    moneySum('w.fee').as('fee'),
  ]),
);

async function countAndSum(db: Db, f: WithdrawFilter) {
  if (countedByStat(f)) {
    const r = await readCounter(db, WITHDRAWAL_STAT, { type: f.type, status: f.status });
    return { n: r.n, amount: r.amount_sum, fee: r.fee_sum };
  }
  const { shape, values } = listFilterParts(f);
  return withdrawalSums.executeTakeFirstOrThrow(db, shape, values);
}

export interface WithdrawPageRow {
  id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  type: number;
  asset: string;
  amount: string;
  fee: string;
  actual: string;
  chain: string;
  address: string;
  status: number;
  tx_hash: string | null;
  remark: string;
  auditor_id: number | null;
  auditor_name: string | null;
  audited_at: number | null;
  paid_at: number | null;
  created_at: number;
}

/** What the list and the export show of a withdrawal (amounts as decimal strings of minor units). */
const recordColumns = () =>
  [
    'w.id',
    'w.asset',
    money('w.amount').as('amount'),
    money('w.fee').as('fee'),
    money('w.actual').as('actual'),
    'w.chain',
    'w.address',
    'w.status',
    'w.tx_hash',
    'w.remark',
    'w.auditor_name',
    'w.audited_at',
    'w.paid_at',
    'w.created_at',
  ] as const;

/**
 * A page of withdrawals (by page number or from a cursor) and the exact total and sums of the filter.
 * The page is chosen alone — walking an index in the sort order, or for a few members their records
 * sorted — then joined to its members.
 */
export async function findWithdrawals(db: Db, f: WithdrawFilter, page: KeysetPageRequest & { sort: WithdrawSort }) {
  const [paged, agg] = await Promise.all([withdrawalPage.read(db, listFilterParts(f), page), countAndSum(db, f)]);
  return { ...paged, total: Number(agg.n), sumAmount: agg.amount, sumFee: agg.fee };
}

/**
 * A page of withdrawals, compiled once per shape. The page is chosen alone — walking an index in the
 * sort order, or for a few members their records sorted — then joined to its members.
 */
const withdrawalPage = new ShapedPage<
  FilterShape,
  FilterValues,
  WithdrawSort,
  WithdrawPageRow & { sort_value: number | string }
>(
  listFilterKey,
  (db, s, v, page) => {
    const sortCol = SORT_COLUMNS[s.sort];
    return withMembers<WithdrawPageRow & { sort_value: number | string }>(
      db,
      keysetSlice(
        filteredShape(db, s.filter, v).select([
          ...recordColumns(),
          'w.member_id',
          'w.type',
          'w.auditor_id',
          sortCol.as('sort_value'),
        ]),
        page,
        { sort: s.sort === 'id' ? 'w.id' : sortCol, id: 'w.id', afterLookup: s.filter.members.startsWith('ids') },
      ).as('p'),
    );
  },
  () => 'sort_value',
);

/** One batch of the export: the filter's withdrawals with id < afterId, newest first, with their members. */
export function withdrawalBatch(
  db: Db,
  f: WithdrawFilter,
  afterId: number | null,
  limit: number,
): Promise<WithdrawExportRow[]> {
  let q = exportQuery(db, f);
  if (afterId !== null) q = q.where('w.id', '<', afterId);
  return selectArrays<WithdrawExportRow>(db, q.orderBy('w.id', 'desc').limit(limit));
}

/** What the export reads of a withdrawal, in this order (arrays, not objects: see selectArrays). */
const EXPORT_SELECT = [...recordColumns(), 'm.uid', 'm.phone', 'm.nickname'] as const;

const exportQuery = (db: Db, f: WithdrawFilter) =>
  filtered(db, f).innerJoin('member as m', 'm.id', 'w.member_id').select(EXPORT_SELECT);

/** One exported withdrawal: values in the order of EXPORT_SELECT. */
export type WithdrawExportRow = readonly [
  id: number,
  asset: string,
  amount: string,
  fee: string,
  actual: string,
  chain: string,
  address: string,
  status: number,
  txHash: string | null,
  remark: string,
  auditorName: string | null,
  auditedAt: number | null,
  paidAt: number | null,
  createdAt: number,
  uid: string,
  phone: string,
  nickname: string,
];

/** Where each value sits in a WithdrawExportRow. */
export const WITHDRAW_EXPORT = {
  id: 0,
  amount: 2,
  fee: 3,
  actual: 4,
  chain: 5,
  address: 6,
  status: 7,
  txHash: 8,
  remark: 9,
  auditorName: 10,
  auditedAt: 11,
  paidAt: 12,
  createdAt: 13,
  uid: 14,
  phone: 15,
  nickname: 16,
} as const;

/** The fields of EXPORT_SELECT as the writers from COPY read them from PostgreSQL's CSV (CopyRows). */
const COPY_FIELDS = [
  'int', // id
  'bytes', // asset (not shown: the amounts' headers name it)
  'text', // amount
  'text', // fee
  'text', // actual
  'bytes', // chain
  'bytes', // address
  'int', // status
  'bytes', // tx_hash
  'bytes', // remark
  'bytes', // auditor_name
  'int', // audited_at
  'int', // paid_at
  'int', // created_at
  'bytes', // uid
  'bytes', // phone
  'bytes', // nickname
] as const satisfies readonly CopyRows['fields'][number][] & { length: typeof EXPORT_SELECT.length };

/** Every withdrawal of the filter, newest first, as one COPY on PostgreSQL (the rows withdrawalBatch pages through). */
export function withdrawalCopy(db: Db, source: DbSource, f: WithdrawFilter): CopyRows {
  const statement = copyStatement(exportQuery(db, f).orderBy('w.id', 'desc').compile());
  return { fields: COPY_FIELDS, chunks: (signal) => copyCsv(source, statement, signal) };
}
