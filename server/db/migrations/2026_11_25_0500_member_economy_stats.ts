import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';
import { OVERFLOW_ABORT } from './2026_11_24_1000_integer_sums';

/**
 * Per-member counters of the LZ economy, so that a member's records (a busy member has thousands of
 * pledges and tens of thousands of releases) are listed with their exact total and sums from a few
 * counter rows instead of a sum over all of them (41–159 ms p95 at a million records, docs/performance.md):
 * - pledge_member_stat: a member's pledges per (mode, status) with amount, released, and release_n
 *   (the count of their daily releases: paid_day − start_day, one release row per paid day) — the
 *   pledge list of a member and, summed, that member's release list (yield = released, principal =
 *   amount of the finished pledges);
 * - seed_member_stat: a member's seeds per (source, status) with total energy, released and release_n;
 * - match_seller_stat, match_buyer_stat: a member's matches on each side per status with quantity and total.
 * Moved in the transaction that writes the counted rows (the repositories and the settlement job, as the
 * global counters are); filled here from the existing rows.
 */
const COUNTERS: Record<string, { source: string; keys: readonly string[]; sums: Record<string, string> }> = {
  pledge_member_stat: {
    source: 'pledge',
    keys: ['member_id', 'mode_id', 'status'],
    sums: { amount_sum: 'amount', released_sum: 'released', release_n: 'paid_day - start_day' },
  },
  seed_member_stat: {
    source: 'seed',
    keys: ['member_id', 'source', 'status'],
    sums: { total_sum: 'total_energy', released_sum: 'released', release_n: 'paid_day - start_day' },
  },
  match_seller_stat: {
    source: 'match_trade',
    keys: ['seller_id', 'status'],
    sums: { quantity_sum: 'quantity', total_sum: 'total' },
  },
  match_buyer_stat: {
    source: 'match_trade',
    keys: ['buyer_id', 'status'],
    sums: { quantity_sum: 'quantity', total_sum: 'total' },
  },
};

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = dialectOf(db) === 'sqlite';
  for (const [table, c] of Object.entries(COUNTERS)) {
    let t = db.schema.createTable(table);
    for (const k of c.keys)
      t = t.addColumn(k, k === 'status' || k === 'source' ? 'integer' : 'bigint', (col) => col.notNull());
    t = t.addColumn('n', 'bigint', (col) => col.notNull().check(sql`n >= 0`));
    for (const s of Object.keys(c.sums)) t = t.addColumn(s, 'bigint', (col) => col.notNull());
    t = t.addPrimaryKeyConstraint(`${table}_pk`, [...c.keys] as never[]);
    // SQLite: one B-tree keyed by the member (a settlement batch upserts a thousand of these rows).
    if (sqlite) t = t.modifyEnd(sql`without rowid`);
    await t.execute();

    const sums = Object.entries(c.sums);
    await sql`insert into ${sql.table(table)} (${sql.join([...c.keys, 'n', ...sums.map(([s]) => s)].map((x) => sql.id(x)))})
      select ${sql.join([...c.keys.map((k) => sql.id(k)), sql`count(*)`, ...sums.map(([, e]) => sql`sum(${sql.raw(e)})`)])}
      from ${sql.table(c.source)} group by ${sql.join(c.keys.map((k) => sql.id(k)))}`.execute(db);

    // SQLite: refuse a counter sum that would go REAL past 2^63 (as 2026_11_24_1000_integer_sums does).
    if (sqlite) {
      const notInteger = sql.join(
        ['n', ...Object.keys(c.sums)].map((col) => sql`typeof(new.${sql.id(col)}) <> 'integer'`),
        sql` or `,
      );
      for (const event of ['insert', 'update'] as const) {
        await sql`create trigger ${sql.id(`${table}_integer_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
          when ${notInteger}
          begin select raise(abort, ${sql.lit(OVERFLOW_ABORT)}); end`.execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(COUNTERS)) await db.schema.dropTable(table).execute();
}
