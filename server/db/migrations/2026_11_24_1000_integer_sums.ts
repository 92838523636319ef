import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Balances and the money sums of the counters stay integers. SQLite turns an integer `+` that passes
 * 2^63 into a float and stores it (a day total went REAL and every list reading it answered 500);
 * PostgreSQL raises "bigint out of range" by itself. These triggers make SQLite refuse the write
 * instead; server/db/counters.ts turns either refusal into a 400 (docs/decisions.md "Money ceilings").
 */
export const INTEGER_COLUMNS: Record<string, string[]> = {
  account: ['available', 'frozen'],
  bill_stat: ['n', 'change_sum', 'frozen_change_sum'],
  transfer_stat: ['n', 'amount_sum', 'fee_sum'],
  withdrawal_stat: ['n', 'amount_sum', 'fee_sum'],
  deposit_stat: ['n', 'amount_sum'],
};

/** The message the triggers abort with: what counters.ts recognises as an overflow. */
export const OVERFLOW_ABORT = 'integer overflow';

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const [table, columns] of Object.entries(INTEGER_COLUMNS)) {
    const notInteger = sql.join(
      columns.map((c) => sql`typeof(new.${sql.id(c)}) <> 'integer'`),
      sql` or `,
    );
    for (const event of ['insert', 'update'] as const) {
      await sql`create trigger ${sql.id(`${table}_integer_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
        when ${notInteger}
        begin select raise(abort, ${sql.lit(OVERFLOW_ABORT)}); end`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const table of Object.keys(INTEGER_COLUMNS)) {
    for (const event of ['insert', 'update'])
      await sql`drop trigger if exists ${sql.id(`${table}_integer_${event}`)}`.execute(db);
  }
}
