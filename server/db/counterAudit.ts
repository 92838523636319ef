/**
 * A counter against its source table (./counters): rebuilt after a bulk load that writes the rows
 * directly, and checked (the bench data, the ledger checks and the tests ask for the keys that differ).
 */
import { sql } from 'kysely';
import { sumColumns, type Counter, type Db } from './counters';

/** The key columns as read from the source table: `<expression> as <key>`, and the same for GROUP BY. */
function sourceKeys<K extends string>(c: Counter<K, string>) {
  const exprs = c.keys.map((k) => (c.keyOf?.[k] ? sql.raw(c.keyOf[k]) : sql.id(k)));
  return {
    select: sql.join(c.keys.map((k, i) => sql`${exprs[i]} as ${sql.id(k)}`)),
    groupBy: sql.join(exprs),
  };
}

/** Recounts the counter from its source table (bulk loads that write the rows directly). */
export async function rebuildCounter<K extends string, S extends string>(db: Db, c: Counter<K, S>): Promise<void> {
  const sums = sumColumns(c);
  const keys = sourceKeys(c);
  const columns = sql.join([...c.keys, 'n', ...sums].map((col) => sql.id(col)));
  const counted = sql.join([keys.select, sql`count(*)`, ...sums.map((s) => sql`sum(${sql.raw(c.sums[s])})`)]);
  await db.deleteFrom(c.table).execute();
  await sql`insert into ${sql.table(c.table)} (${columns})
    select ${counted} from ${sql.table(c.source)} group by ${keys.groupBy}`.execute(db);
}

/**
 * The keys where the counter differs from its source table (empty when consistent): a counter row that
 * is missing or counts otherwise, or a row of a key with no rows that is not all zero.
 */
export async function counterViolations<K extends string, S extends string>(
  db: Db,
  c: Counter<K, S>,
): Promise<Array<Record<K, number | string>>> {
  const sums = sumColumns(c);
  const ref = (alias: string, col: string) => sql.ref(`${alias}.${col}`);
  const keys = sourceKeys(c);
  const counted = sql.join([
    keys.select,
    sql`count(*) as n`,
    ...sums.map((s) => sql`sum(${sql.raw(c.sums[s])}) as ${sql.id(s)}`),
  ]);
  const r = await sql<Record<K, number | string>>`
    select ${sql.join(c.keys.map((k) => sql`coalesce(${ref('c', k)}, ${ref('s', k)}) as ${sql.id(k)}`))}
    from (select ${counted} from ${sql.table(c.source)} group by ${keys.groupBy}) c
    full outer join ${sql.table(c.table)} s on ${sql.join(
      c.keys.map((k) => sql`${ref('s', k)} = ${ref('c', k)}`),
      sql` and `,
    )}
    where (c.n is null and (${sql.join(
      ['n', ...sums].map((col) => sql`${ref('s', col)} <> 0`),
      sql` or `,
    )})) or s.n is null or ${sql.join(
      ['n', ...sums].map((col) => sql`${ref('c', col)} <> ${ref('s', col)}`),
      sql` or `,
    )}`.execute(db);
  return r.rows;
}

/** Recounts each of `counters` from its source table, one after the other. */
export async function rebuildCounters(db: Db, counters: readonly Counter<any, any>[]): Promise<void> {
  for (const c of counters) await rebuildCounter(db, c);
}

/** counterViolations of each named counter, checked at once: the same names, each with its keys that differ. */
export async function namedCounterViolations<N extends string>(
  db: Db,
  counters: Record<N, Counter<any, any>>,
): Promise<Record<N, Array<Record<string, number | string>>>> {
  const names = Object.keys(counters) as N[];
  const found = await Promise.all(names.map((n) => counterViolations(db, counters[n])));
  return Object.fromEntries(names.map((n, i) => [n, found[i]])) as Record<N, Array<Record<string, number | string>>>;
}
