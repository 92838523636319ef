/**
 * What a settlement batch writes for its records: the releases each record is owed (one a day, the
 * principal on a pledge's end day), the release rows, and the records moved to their new paid day —
 * only from the paid day the batch read, so a record paid meanwhile rolls the batch back.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { Code } from '../../../domain/codes';
import { releaseOf } from '../../../domain/economy';
import { SettlementMessages } from '../../../domain/settlement';
import { bulkRows } from '../../db/bulk';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';

type Db = Kysely<Database> | Transaction<Database>;

/** One day's release of a record, as written to its release table and credited. */
export interface Release {
  recordId: number;
  memberId: number;
  day: number;
  amount: bigint;
  principal: bigint;
}

/** What a batch does to one record: the days it pays and where it ends. */
export interface RecordMove {
  id: number;
  memberId: number;
  paidDay: number;
  newPaidDay: number;
  amount: bigint;
  finished: boolean;
}

/** The releases owed to a record from the day after `paidDay` to `day` (never past its end day). */
export function owed(
  r: {
    id: number;
    memberId: number;
    daily: bigint;
    total: bigint;
    days: number;
    startDay: number;
    endDay: number;
    paidDay: number;
  },
  day: number,
  principal: bigint,
): { releases: Release[]; move: RecordMove } {
  const last = Math.min(day, r.endDay);
  const releases: Release[] = [];
  let sum = 0n;
  for (let d = r.paidDay + 1; d <= last; d++) {
    const amount = releaseOf({ daily: r.daily, total: r.total }, d, r.startDay, r.days);
    sum += amount;
    releases.push({
      recordId: r.id,
      memberId: r.memberId,
      day: d,
      amount,
      principal: d === r.endDay ? principal : 0n,
    });
  }
  return {
    releases,
    move: {
      id: r.id,
      memberId: r.memberId,
      paidDay: r.paidDay,
      newPaidDay: last,
      amount: sum,
      finished: last === r.endDay,
    },
  };
}

/**
 * Moves a batch's records to their new paid day, adding what they were paid and closing the finished
 * ones, in one statement; only rows still active at the paid day the batch read move. Anything else
 * (a concurrent writer, a bug) rolls the batch back.
 */
export async function moveRecords(trx: Db, table: 'pledge' | 'seed', moves: RecordMove[], now: number): Promise<void> {
  const values = bulkRows(
    trx,
    ['bigint', 'integer', 'integer', 'bigint', 'integer'],
    moves.map((m) => [m.id, m.paidDay, m.newPaidDay, m.amount, m.finished ? 1 : 0]),
  );
  const t = sql.table(table);
  const col = (c: string) => sql.ref(`${table}.${c}`);
  const r = await sql`
    with v(id, paid, new_paid, amt, fin) as (${values})
    update ${t} set paid_day = v.new_paid, released = ${col('released')} + v.amt,
      status = case when v.fin = 1 then 2 else ${col('status')} end,
      finished_at = case when v.fin = 1 then cast(${now} as bigint) else ${col('finished_at')} end
    from v
    where ${col('id')} = v.id and ${col('paid_day')} = v.paid and ${col('status')} = 1`.execute(trx);
  if (Number(r.numAffectedRows ?? 0) !== moves.length) throw new AppError(Code.conflict, SettlementMessages.changed);
}

/** Release rows per insert (on SQLite 5 parameters each: well under its limit). */
const INSERT_ROWS = 2000;

/** Writes a batch's release rows (pledge_release with the principal, seed_release without). */
export async function insertReleases(
  trx: Db,
  table: 'pledge' | 'seed',
  releases: Release[],
  now: number,
): Promise<void> {
  for (let i = 0; i < releases.length; i += INSERT_ROWS) {
    const part = releases.slice(i, i + INSERT_ROWS);
    if (table === 'pledge') {
      const rows = bulkRows(
        trx,
        ['bigint', 'bigint', 'integer', 'bigint', 'bigint'],
        part.map((r) => [r.recordId, r.memberId, r.day, r.amount, r.principal]),
      );
      await sql`with v(pledge_id, member_id, day, amount, principal) as (${rows})
        insert into pledge_release (pledge_id, member_id, day, amount, principal, created_at)
        select pledge_id, member_id, day, amount, principal, cast(${now} as bigint) from v`.execute(trx);
    } else {
      const rows = bulkRows(
        trx,
        ['bigint', 'bigint', 'integer', 'bigint'],
        part.map((r) => [r.recordId, r.memberId, r.day, r.amount]),
      );
      await sql`with v(seed_id, member_id, day, amount) as (${rows})
        insert into seed_release (seed_id, member_id, day, amount, created_at)
        select seed_id, member_id, day, amount, cast(${now} as bigint) from v`.execute(trx);
    }
  }
}
