/** A counter's move written inside the statement that moves its row (PostgreSQL's data-modifying CTEs). */
import { sql, type RawBuilder } from 'kysely';
import { compareKeys, describeKey, sumColumns, type Counter, type CounterKey } from './counters';

/**
 * PostgreSQL: one source row's move of counter `c` from key `from` to the higher key `to`, as the bodies
 * of two data-modifying CTEs for a statement that makes the row's move itself in its CTE `after` (one
 * row, or none when it moved nothing): `fell` takes the row (its sums) off the `from` row, `rose` adds
 * it to the `to` row (an upsert), one row per row of `after`, its count read from `fell` — so the rows
 * are taken in ascending key order, as `CounterMoves.apply` takes them. A `from` row that is missing (a
 * counter out of step) gives the rise a NULL count, which the column's NOT NULL refuses; one that would
 * fall below zero fails its `n >= 0` check: either way the whole statement fails, the move with it.
 */
export function moveInStatement<K extends string, S extends string>(
  c: Counter<K, S>,
  from: CounterKey<K>,
  to: CounterKey<K>,
  values: Readonly<Record<S, bigint>>,
  names: { after: string; fell: string },
): { fell: RawBuilder<unknown>; rose: RawBuilder<unknown> } {
  if (compareKeys(c.keys, from, to) >= 0)
    throw new Error(`${c.table}: a move in one statement takes its keys ascending (${describeKey(c.keys, from)})`);
  const sums = sumColumns(c);
  const t = sql.table(c.table);
  const typed = (v: number | string | bigint) =>
    sql`cast(${v} as ${sql.raw(typeof v === 'string' ? 'text' : 'bigint')})`;
  const fell = sql`update ${t} set n = n - 1, ${sql.join(sums.map((s) => sql`${sql.id(s)} = ${sql.id(s)} - ${typed(values[s])}`))}
    where ${sql.join(
      c.keys.map((k) => sql`${sql.id(k)} = ${from[k]}`),
      sql` and `,
    )} and exists (select 1 from ${sql.table(names.after)}) returning 1 as one`;
  const fellCount = sql`(select one from ${sql.table(names.fell)})`;
  const added = sql.join(
    ['n', ...sums].map((col) => sql`${sql.id(col)} = ${sql.ref(`${c.table}.${col}`)} + excluded.${sql.id(col)}`),
  );
  const rose = sql`insert into ${t} (${sql.join([...c.keys, 'n', ...sums].map((col) => sql.id(col)))})
    select ${sql.join([...c.keys.map((k) => typed(to[k])), fellCount, ...sums.map((s) => typed(values[s]))])}
    from ${sql.table(names.after)}
    on conflict (${sql.join(c.keys.map((k) => sql.id(k)))}) do update set ${added} returning 1 as one`;
  return { fell, rose };
}
