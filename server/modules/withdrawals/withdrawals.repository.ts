/**
 * All SQL on withdrawals, but for what an action reads first and the approval in one statement
 * (./withdrawals.approve.ts). Plain functions taking `db` or `trx` first.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { forNoKeyUpdate } from '../../db/dialect';
import { keysetSlice, ShapedPage, type KeysetPageRequest } from '../../db/keyset';
import { ShapedQuery } from '../../db/shapes';
import { money, moneySum } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';
import {
  listFilterKey,
  listFilterParts,
  memberIdCondition,
  withMembers,
  type KeywordMembers,
  type ListFilterShape,
  type ListFilterValues,
} from '../members/members.query';

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
export function withdrawalBatch(db: Db, f: WithdrawFilter, afterId: number | null, limit: number) {
  let q = filtered(db, f)
    .innerJoin('member as m', 'm.id', 'w.member_id')
    .select([...recordColumns(), 'm.uid', 'm.phone', 'm.nickname']);
  if (afterId !== null) q = q.where('w.id', '<', afterId);
  return q.orderBy('w.id', 'desc').limit(limit).execute();
}

export const WITHDRAWAL_STAT = counter({
  table: 'withdrawal_stat',
  source: 'withdrawal',
  keys: ['type', 'status'],
  sums: { amount_sum: 'amount', fee_sum: 'fee' },
});

/**
 * Queues the move of one withdrawal of `type` from status `from` (null: a new record) to `to` in
 * withdrawal_stat, for the end of the caller's transaction (`CounterMoves`, server/db/counterMoves.ts).
 */
function moveWithdrawalStat(
  db: Db,
  counts: CounterMoves,
  w: { type: number; amount: bigint; fee: bigint },
  from: number | null,
  to: number,
): void {
  counts.move(
    db,
    WITHDRAWAL_STAT,
    from === null ? null : { type: w.type, status: from },
    { type: w.type, status: to },
    { amount_sum: w.amount, fee_sum: w.fee },
  );
}

/** Recounts withdrawal_stat from the withdrawals (bulk loads that write them directly). */
export const rebuildWithdrawalStats = (db: Db): Promise<void> => rebuildCounter(db, WITHDRAWAL_STAT);

/** (type, status) rows where withdrawal_stat differs from the withdrawals (empty when consistent). */
export const withdrawalStatViolations = (db: Db) => counterViolations(db, WITHDRAWAL_STAT);

export interface Transition {
  to: number;
  from: readonly number[];
  set: {
    remark?: string;
    tx_hash?: string | null;
    audited?: { managerId: number; username: string; now: number };
    paid?: { managerId: number; username: string; now: number };
  };
}

/**
 * One conditional UPDATE per allowed source status: moves the withdrawal from that status to `to`, and
 * queues its withdrawal_stat move. Returns what the ledger and the op log need (with the status it left)
 * when this call made the move, undefined when the record is missing or in another state.
 */
export async function moveWithdrawal(trx: Db, counts: CounterMoves, id: number, t: Transition) {
  const set: Record<string, unknown> = { status: t.to };
  if (t.set.remark !== undefined) set.remark = t.set.remark;
  if (t.set.tx_hash !== undefined) set.tx_hash = t.set.tx_hash;
  if (t.set.audited) {
    set.auditor_id = t.set.audited.managerId;
    set.auditor_name = t.set.audited.username;
    set.audited_at = t.set.audited.now;
  }
  if (t.set.paid) {
    // An auto-approved record has no auditor yet: the manager who pays it is its auditor.
    set.auditor_id = sql`coalesce(auditor_id, ${t.set.paid.managerId})`;
    set.auditor_name = sql`coalesce(auditor_name, ${t.set.paid.username})`;
    set.audited_at = sql`coalesce(audited_at, ${t.set.paid.now})`;
    set.paid_at = t.set.paid.now;
  }
  const moved = await updateFromFirst(t.from, (from) =>
    trx
      .updateTable('withdrawal')
      .set(set)
      .where('id', '=', id)
      .where('status', '=', from)
      .returning([
        'member_id',
        'type',
        'asset',
        'chain',
        'status',
        money('amount').as('amount'),
        money('fee').as('fee'),
      ])
      .executeTakeFirst(),
  );
  if (!moved) return undefined;
  const { row, from } = moved;
  moveWithdrawalStat(trx, counts, { type: row.type, amount: BigInt(row.amount), fee: BigInt(row.fee) }, from, t.to);
  return { ...row, from };
}

export async function withdrawalExists(db: Db, id: number): Promise<boolean> {
  return (await withdrawalStatus(db, id)) !== undefined;
}

/** The record's status now; undefined when there is no such record. */
export async function withdrawalStatus(db: Db, id: number): Promise<number | undefined> {
  return (await db.selectFrom('withdrawal').select('status').where('id', '=', id).executeTakeFirst())?.status;
}

/**
 * The member's status, row-locked on PostgreSQL so one member's requests are checked one at a time
 * (NO KEY: a bill inserted for the member meanwhile must not deadlock against this lock).
 */
export async function lockMember(trx: Db, memberId: number) {
  const q = trx.selectFrom('member').select(['id', 'status']).where('id', '=', memberId);
  return forNoKeyUpdate(q, trx as unknown as Kysely<unknown>).executeTakeFirst();
}

/** Requests of the member and type since `since` that were not rejected. */
export async function countRequestsSince(db: Db, memberId: number, type: number, since: number): Promise<number> {
  const r = await db
    .selectFrom('withdrawal')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId)
    .where('created_at', '>=', since)
    .where('type', '=', type)
    .where('status', '<>', 3)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Inserts a withdrawal and queues its withdrawal_stat count. */
export async function insertWithdrawal(
  db: Db,
  counts: CounterMoves,
  v: {
    memberId: number;
    type: number;
    asset: string;
    amount: bigint;
    fee: bigint;
    chain: string;
    address: string;
    status: number;
    now: number;
    autoApproved: boolean;
  },
): Promise<number> {
  const r = await db
    .insertInto('withdrawal')
    .values({
      member_id: v.memberId,
      type: v.type,
      asset: v.asset,
      amount: v.amount,
      fee: v.fee,
      actual: v.amount - v.fee,
      chain: v.chain,
      address: v.address,
      status: v.status,
      remark: v.autoApproved ? '自动审核' : '',
      audited_at: v.autoApproved ? v.now : null,
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  moveWithdrawalStat(db, counts, v, null, v.status);
  return Number(r.id);
}
