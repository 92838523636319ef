/**
 * All SQL that writes withdrawals and their counter, and what an action reads first; the list and export
 * reads are in ./withdrawals.list.ts, the approval in one statement in ./withdrawals.approve.ts. Plain
 * functions taking `db` or `trx` first.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter } from '../../db/counters';
import { forNoKeyUpdate } from '../../db/dialect';
import { money } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';

type Db = Kysely<Database> | Transaction<Database>;

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
