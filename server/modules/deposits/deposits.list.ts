/**
 * The deposit list's and export's reads: a filter (its shape and values), a page and the exact total and
 * sum (deposit_stat where it answers), each compiled once per shape. Plain functions taking `db` or
 * `trx` first.
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
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';
import { DEPOSIT_STAT } from './deposits.repository';

type Db = Kysely<Database> | Transaction<Database>;

export interface DepositFilter {
  /** One record (a link from its bill). */
  id?: number;
  /** The members whose deposits are listed: ids (a keyword resolved first), or a subquery when many. */
  members?: number[] | { keyword: string };
  txHash?: string;
  chain?: string;
  status?: number;
  start?: number;
  end?: number;
}

const SORT_COLUMNS = {
  id: sql.ref('d.id'),
  createdAt: sql.ref('d.created_at'),
  amount: sql.ref('d.amount'),
  auditedAt: sql`coalesce(d.audited_at, 0)`,
} as const;
export type DepositSort = keyof typeof SORT_COLUMNS;

type FilterShape = ListFilterShape<DepositFilter>;
type FilterValues = ListFilterValues<DepositFilter>;

function filteredShape(db: Db, s: FilterShape, v: FilterValues) {
  const g = s.given;
  let q = db.selectFrom('deposit as d');
  if (g.id) q = q.where('d.id', '=', v.id!);
  const members = memberIdCondition(db, 'd.member_id', s.members, v);
  if (members) q = q.where(members);
  if (g.txHash) q = q.where('d.tx_hash', '=', v.txHash!);
  if (g.chain) q = q.where('d.chain', '=', v.chain!);
  if (g.status) q = q.where('d.status', '=', v.status!);
  if (g.start) q = q.where('d.created_at', '>=', v.start!);
  if (g.end) q = q.where('d.created_at', '<=', v.end!);
  return q;
}

/** A filter's shape and values; a tx hash is matched as stored (trimmed, lower case; given as it came). */
function filterParts(f: DepositFilter) {
  const parts = listFilterParts(f);
  if (parts.values.txHash !== undefined) parts.values.txHash = parts.values.txHash.trim().toLowerCase();
  return parts;
}

function filtered(db: Db, f: DepositFilter) {
  const { shape, values } = filterParts(f);
  return filteredShape(db, shape, values);
}

/** What the export shows of a deposit, in this order (arrays, not objects: see selectArrays). */
const EXPORT_SELECT = [
  'd.id',
  'm.uid',
  'm.phone',
  'm.nickname',
  'd.chain',
  money('d.amount').as('amount'),
  'd.from_address',
  'd.to_address',
  'd.tx_hash',
  'd.status',
  'd.remark',
  'd.auditor_name',
  'd.created_at',
  'd.audited_at',
] as const;

const exportQuery = (db: Db, f: DepositFilter) =>
  filtered(db, f).innerJoin('member as m', 'm.id', 'd.member_id').select(EXPORT_SELECT);

/** One exported deposit: values in the order of EXPORT_SELECT. */
export type DepositExportRow = readonly [
  id: number,
  uid: string,
  phone: string,
  nickname: string,
  chain: string,
  amount: string,
  fromAddress: string,
  toAddress: string,
  txHash: string,
  status: number,
  remark: string,
  auditorName: string | null,
  createdAt: number,
  auditedAt: number | null,
];

/** Where each value sits in a DepositExportRow. */
export const DEPOSIT_EXPORT = {
  id: 0,
  uid: 1,
  phone: 2,
  nickname: 3,
  chain: 4,
  amount: 5,
  fromAddress: 6,
  toAddress: 7,
  txHash: 8,
  status: 9,
  remark: 10,
  auditorName: 11,
  createdAt: 12,
  auditedAt: 13,
} as const;

/** One batch of the export: the filter's deposits with id < afterId, newest first, with their members. */
export function depositBatch(
  db: Db,
  f: DepositFilter,
  afterId: number | null,
  limit: number,
): Promise<DepositExportRow[]> {
  let q = exportQuery(db, f);
  if (afterId !== null) q = q.where('d.id', '<', afterId);
  return selectArrays<DepositExportRow>(db, q.orderBy('d.id', 'desc').limit(limit));
}

/** The fields of EXPORT_SELECT as the writers from COPY read them from PostgreSQL's CSV (CopyRows). */
const COPY_FIELDS = [
  'int', // id
  'bytes', // uid
  'bytes', // phone
  'bytes', // nickname
  'bytes', // chain
  'text', // amount
  'bytes', // from_address
  'bytes', // to_address
  'bytes', // tx_hash
  'int', // status
  'bytes', // remark
  'bytes', // auditor_name
  'int', // created_at
  'int', // audited_at
] as const satisfies readonly CopyRows['fields'][number][] & { length: typeof EXPORT_SELECT.length };

/** Every deposit of the filter, newest first, as one COPY on PostgreSQL (the rows depositBatch pages through). */
export function depositCopy(db: Db, source: DbSource, f: DepositFilter): CopyRows {
  const statement = copyStatement(exportQuery(db, f).orderBy('d.id', 'desc').compile());
  return { fields: COPY_FIELDS, chunks: (signal) => copyCsv(source, statement, signal) };
}

/** Nothing but a status (or nothing at all): deposit_stat answers count and sum. */
const countedByStat = (f: DepositFilter) =>
  f.id === undefined && !f.members && !f.txHash && !f.chain && f.start === undefined && f.end === undefined;

/** The count and sum of a filter deposit_stat cannot answer, compiled once per shape. */
const depositSums = new ShapedQuery(listFilterKey, (db, s: FilterShape, v: FilterValues) =>
  filteredShape(db as Db, s, v).select((eb) => [eb.fn.countAll<number>().as('n'), moneySum('d.amount').as('amount')]),
);

async function countAndSum(db: Db, f: DepositFilter) {
  if (countedByStat(f)) {
    const r = await readCounter(db, DEPOSIT_STAT, { status: f.status });
    return { n: r.n, amount: r.amount_sum };
  }
  const { shape, values } = filterParts(f);
  return depositSums.executeTakeFirstOrThrow(db, shape, values);
}

export interface DepositPageRow {
  id: number;
  member_id: number;
  uid: string;
  phone: string;
  nickname: string;
  chain: string;
  from_address: string;
  to_address: string;
  amount: string;
  tx_hash: string;
  proof_url: string;
  status: number;
  remark: string;
  auditor_id: number | null;
  auditor_name: string | null;
  audited_at: number | null;
  created_at: number;
}

/**
 * A page of deposits (by page number or from a cursor) and the exact total and sum of the filter.
 * The page is chosen alone — walking an index in the sort order, or for a few members their deposits
 * sorted — then joined to its members.
 */
export async function findDeposits(db: Db, f: DepositFilter, page: KeysetPageRequest & { sort: DepositSort }) {
  const [paged, agg] = await Promise.all([depositPage.read(db, filterParts(f), page), countAndSum(db, f)]);
  return { ...paged, total: Number(agg.n), sumAmount: agg.amount };
}

const depositPage = new ShapedPage<
  FilterShape,
  FilterValues,
  DepositSort,
  DepositPageRow & { sort_value: number | string }
>(
  listFilterKey,
  (db, s, v, page) => {
    const sortCol = SORT_COLUMNS[s.sort];
    return withMembers<DepositPageRow & { sort_value: number | string }>(
      db,
      keysetSlice(
        filteredShape(db, s.filter, v).select([
          'd.id',
          'd.member_id',
          'd.chain',
          'd.from_address',
          'd.to_address',
          money('d.amount').as('amount'),
          'd.tx_hash',
          'd.proof_url',
          'd.status',
          'd.remark',
          'd.auditor_id',
          'd.auditor_name',
          'd.audited_at',
          'd.created_at',
          sortCol.as('sort_value'),
        ]),
        page,
        { sort: s.sort === 'id' ? 'd.id' : sortCol, id: 'd.id', afterLookup: s.filter.members.startsWith('ids') },
      ).as('p'),
    );
  },
  () => 'sort_value',
);
