/** All SQL on deposits and receiving addresses. Plain functions taking `db` or `trx` first. */
import { sql, type Kysely, type Transaction } from 'kysely';
import { DepositAccountStatus } from '../../../domain/deposits';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { keysetSlice, ShapedPage, type KeysetPageRequest } from '../../db/keyset';
import { ShapedQuery } from '../../db/shapes';
import { likePrefix, money, moneySum } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';
import {
  listFilterKey,
  listFilterParts,
  memberIdCondition,
  withMembers,
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';

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

/** One batch of the export: the filter's deposits with id < afterId, newest first, with their members. */
export function depositBatch(db: Db, f: DepositFilter, afterId: number | null, limit: number) {
  let q = filtered(db, f)
    .innerJoin('member as m', 'm.id', 'd.member_id')
    .select([
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
      'd.audited_at',
      'd.created_at',
    ]);
  if (afterId !== null) q = q.where('d.id', '<', afterId);
  return q.orderBy('d.id', 'desc').limit(limit).execute();
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

const DEPOSIT_STAT = counter({
  table: 'deposit_stat',
  source: 'deposit',
  keys: ['status'],
  sums: { amount_sum: 'amount' },
});

/**
 * Queues the move of one deposit of `amount` from status `from` (null: a new deposit) to `to` in
 * deposit_stat, for the end of the caller's transaction (`CounterMoves`, server/db/counterMoves.ts).
 */
function moveDepositStat(db: Db, counts: CounterMoves, amount: bigint, from: number | null, to: number): void {
  counts.move(db, DEPOSIT_STAT, from === null ? null : { status: from }, { status: to }, { amount_sum: amount });
}

/** Recounts deposit_stat from the deposits (bulk loads that write them directly). */
export const rebuildDepositStats = (db: Db): Promise<void> => rebuildCounter(db, DEPOSIT_STAT);

/** Statuses where deposit_stat differs from the deposits (empty when consistent). */
export const depositStatViolations = (db: Db) => counterViolations(db, DEPOSIT_STAT);

/**
 * Moves a deposit from one of `t.from` to `t.to` (one conditional UPDATE per source state), and queues
 * its deposit_stat move. Returns the member and amount when this call made the move, undefined when
 * the deposit is missing or in another state.
 */
export async function moveDeposit(
  trx: Db,
  counts: CounterMoves,
  id: number,
  t: { from: readonly number[]; to: number },
  by: { managerId: number; username: string; remark: string; now: number },
) {
  const moved = await updateFromFirst(t.from, (from) =>
    trx
      .updateTable('deposit')
      .set({
        status: t.to,
        remark: by.remark,
        auditor_id: by.managerId,
        auditor_name: by.username,
        audited_at: by.now,
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .returning(['member_id', money('amount').as('amount')])
      .executeTakeFirst(),
  );
  if (!moved) return undefined;
  moveDepositStat(trx, counts, BigInt(moved.row.amount), moved.from, t.to);
  return moved.row;
}

export async function depositExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('deposit').select('id').where('id', '=', id).executeTakeFirst());
}

/** Inserts a pending deposit and queues its deposit_stat count. */
export async function insertDeposit(
  db: Db,
  counts: CounterMoves,
  v: {
    memberId: number;
    chain: string;
    fromAddress: string;
    toAddress: string;
    amount: bigint;
    txHash: string;
    proofUrl: string;
    now: number;
  },
): Promise<number> {
  const r = await db
    .insertInto('deposit')
    .values({
      member_id: v.memberId,
      chain: v.chain,
      from_address: v.fromAddress,
      to_address: v.toAddress,
      amount: v.amount,
      tx_hash: v.txHash,
      proof_url: v.proofUrl,
      remark: '',
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  moveDepositStat(db, counts, v.amount, null, 0);
  return Number(r.id);
}

// ---- receiving addresses ----

export interface DepositAccountFilter {
  chain?: string;
  status?: number;
  address?: string;
}

function accountsFiltered(db: Db, f: DepositAccountFilter) {
  let q = db.selectFrom('deposit_account');
  if (f.chain) q = q.where('chain', '=', f.chain);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.address) q = q.where(sql<boolean>`address like ${likePrefix(f.address)} escape '\\'`);
  return q;
}

export async function findDepositAccounts(db: Db, f: DepositAccountFilter, page: KeysetPageRequest) {
  const [rows, count] = await Promise.all([
    keysetSlice(accountsFiltered(db, f).selectAll(), page, { sort: 'id', id: 'id', afterLookup: false }).execute(),
    accountsFiltered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findDepositAccount(db: Db, id: number) {
  return db.selectFrom('deposit_account').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function enabledAccountsOn(db: Db, chain: string) {
  return db
    .selectFrom('deposit_account')
    .select(['id', 'address'])
    .where('chain', '=', chain)
    .where('status', '=', DepositAccountStatus.is.enabled)
    .orderBy('id')
    .execute();
}
