/**
 * What an action reads of withdrawals before it acts, and PostgreSQL's approval in one statement
 * (docs/decisions.md, "An approval in one statement on PostgreSQL").
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { WithdrawStatus } from '../../../domain/withdrawals';
import { moveInStatement } from '../../db/counterStatement';
import { refuseOverflow } from '../../db/overflow';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';
import { executeGenericPlan } from '../../db/statements';
import { WITHDRAWAL_STAT } from './withdrawals.repository';

type Db = Kysely<Database> | Transaction<Database>;

/** What an action reads of a record before it acts: the permission check, an approval's one statement. */
export interface WithdrawalFacts {
  type: number;
  asset: string;
  amount: bigint;
  fee: bigint;
}

/** id → type, asset, amount and fee of the withdrawals that exist among `ids`. */
export async function factsOf(db: Db, ids: number[]): Promise<Map<number, WithdrawalFacts>> {
  const out = new Map<number, WithdrawalFacts>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('withdrawal')
      .select(['id', 'type', 'asset', money('amount').as('amount'), money('fee').as('fee')])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows)
      out.set(Number(r.id), { type: r.type, asset: r.asset, amount: BigInt(r.amount), fee: BigInt(r.fee) });
  }
  return out;
}

/**
 * PostgreSQL: an approval (待审核 → 待打款, no money moves) as one statement, its own transaction,
 * instead of six round trips (begin, update, op-log row, two counter rows, commit): the guarded update,
 * its op-log row, then the withdrawal_stat moves (`moveInStatement`) — the order `managerAction` takes
 * the rows in, so the two paths never deadlock each other, the hot counter rows last. The update also
 * requires what the caller read (`w`: type, amount, fee), so the counters and the op-log row say what
 * moved. False when nothing moved (missing, not pending, not as read): the caller then takes the
 * general path, which says why.
 */
export async function approveInOneStatement(
  db: Kysely<Database>,
  id: number,
  w: WithdrawalFacts,
  audited: { managerId: number; username: string; now: number; remark?: string },
  log: (moved: string) => RawBuilder<unknown>,
): Promise<boolean> {
  const { fell, rose } = moveInStatement(
    WITHDRAWAL_STAT,
    { type: w.type, status: WithdrawStatus.is.pending },
    { type: w.type, status: WithdrawStatus.is.approved },
    { amount_sum: w.amount, fee_sum: w.fee },
    { after: 'moved', fell: 'fell' },
  );
  const remark = audited.remark === undefined ? sql`` : sql`, remark = ${audited.remark}`;
  const r = await refuseOverflow(() =>
    executeGenericPlan(
      db,
      sql<{ moved: string }>`with moved as (
        update withdrawal set status = ${WithdrawStatus.is.approved}, auditor_id = ${audited.managerId},
          auditor_name = ${audited.username}, audited_at = ${audited.now}${remark}
        where id = ${id} and status = ${WithdrawStatus.is.pending} and type = ${w.type}
          and amount = ${w.amount} and fee = ${w.fee}
        returning id),
      logged as (${log('moved')}),
      fell as (${fell}),
      rose as (${rose})
      -- read in this order, so the rows are taken in this order: the record and its op-log row, then the counters
      select (select count(*) from logged) as moved, (select count(*) from rose) as counted`,
    ),
  );
  return Number(r.rows[0].moved) === 1;
}
