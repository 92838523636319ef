/** All SQL on withdrawals. Plain functions taking `db` or `trx` first. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { forNoKeyUpdate } from '../../db/dialect';
import { money, moneySum } from '../../db/sql';
import { membersMatching } from '../members/members.repository';

type Db = Kysely<Database> | Transaction<Database>;

export interface WithdrawFilter {
  type: number;
  keyword?: string;
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

function filtered(db: Db, f: WithdrawFilter) {
  let q = db.selectFrom('withdrawal as w').where('w.type', '=', f.type);
  if (f.keyword) q = q.where('w.member_id', 'in', membersMatching(db, f.keyword));
  if (f.status !== undefined) q = q.where('w.status', '=', f.status);
  if (f.address) q = q.where('w.address', '=', f.address);
  if (f.txHash) q = q.where('w.tx_hash', '=', f.txHash);
  if (f.start !== undefined) q = q.where('w.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('w.created_at', '<=', f.end);
  return q;
}

export async function findWithdrawals(
  db: Db,
  f: WithdrawFilter,
  page: { offset: number; limit: number; sort: WithdrawSort; order: 'asc' | 'desc' },
) {
  const [rows, agg] = await Promise.all([
    filtered(db, f)
      .innerJoin('member as m', 'm.id', 'w.member_id')
      .select([
        'w.id',
        'w.member_id',
        'm.uid',
        'm.phone',
        'm.nickname',
        'w.type',
        'w.asset',
        money('w.amount').as('amount'),
        money('w.fee').as('fee'),
        money('w.actual').as('actual'),
        'w.chain',
        'w.address',
        'w.status',
        'w.tx_hash',
        'w.remark',
        'w.auditor_id',
        'w.auditor_name',
        'w.audited_at',
        'w.paid_at',
        'w.created_at',
      ])
      .orderBy(SORT_COLUMNS[page.sort], page.order)
      .orderBy('w.id', page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, f)
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        moneySum('w.amount').as('amount'),
        moneySum('w.fee').as('fee'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(agg.n), sumAmount: agg.amount, sumFee: agg.fee };
}

/** id → type of the withdrawals that exist among `ids` (for the permission check before acting). */
export async function typesOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('withdrawal')
      .select(['id', 'type'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(Number(r.id), r.type);
  }
  return out;
}

export interface Transition {
  to: number;
  from: number[];
  set: {
    remark?: string;
    tx_hash?: string | null;
    audited?: { managerId: number; username: string; now: number };
    paid?: { managerId: number; username: string; now: number };
  };
}

/**
 * One conditional UPDATE: moves the withdrawal from one of `from` to `to`. Returns what the ledger
 * needs when this call made the move, undefined when the record is missing or in another state.
 */
export async function moveWithdrawal(trx: Db, id: number, t: Transition) {
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
  return trx
    .updateTable('withdrawal')
    .set(set)
    .where('id', '=', id)
    .where('status', t.from.length === 1 ? '=' : 'in', t.from.length === 1 ? t.from[0] : t.from)
    .returning(['member_id', 'type', 'asset', 'status', money('amount').as('amount')])
    .executeTakeFirst();
}

export async function withdrawalExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('withdrawal').select('id').where('id', '=', id).executeTakeFirst());
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

export async function insertWithdrawal(
  db: Db,
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
  return Number(r.id);
}
