/**
 * All SQL that writes deposits and their counter, and on receiving addresses; the deposit list's and
 * export's reads are in ./deposits.list.ts. Plain functions taking `db` or `trx` first.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { DepositAccountStatus } from '../../../domain/deposits';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter } from '../../db/counters';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { likePrefix, money } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';

type Db = Kysely<Database> | Transaction<Database>;

export const DEPOSIT_STAT = counter({
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
