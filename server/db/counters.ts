/**
 * Counters kept in the writing transaction (member_count, member_phone_count, withdrawal_stat,
 * deposit_stat, payment_stat): one row per key (a status; a type and a status; a zone, level and status…)
 * with how many rows of a table have that key (`n`) and the sums of some of their columns,
 * moved in the transaction that writes the row, so a list's total of a key is one row read (see
 * docs/decisions.md "Exact totals from counters kept in the writing transaction"). One descriptor per
 * counter serves the move, the rebuild after a bulk load and the consistency check (./counterAudit), and
 * PostgreSQL's move inside a row's own statement (./counterStatement).
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { bulkRows, type BulkType } from './bulk';
import { refuseOverflow } from './overflow';
import type { Database } from './schema';
import { moneySum } from './sql';
import { listItems, listValues, ShapedQuery } from './shapes';

export type Db = Kysely<Database> | Transaction<Database>;

export interface Counter<K extends string, S extends string> {
  /** The counter table: the key columns, `n`, and one column per sum. */
  table: keyof Database & string;
  /** The table whose rows it counts, with the key columns under the same names unless `keyOf` says otherwise. */
  source: keyof Database & string;
  /** The key columns, most significant first: a writer takes the counter rows in ascending key order. */
  keys: readonly K[];
  /** A key column computed from the source row (SQL over its columns), e.g. `coalesce(zone_id, 0)`. */
  keyOf?: Readonly<Partial<Record<K, string>>>;
  /**
   * Each sum column of the counter table and what of `source` it sums: a column, or SQL over its columns
   * (`paid_day - start_day`, a record's count of daily releases).
   */
  sums: Readonly<Record<S, string>>;
}

export type CounterKey<K extends string> = Readonly<Record<K, number | string>>;

/** A counter's descriptor, its key and sum column names inferred. */
export const counter = <K extends string, S extends string = never>(c: Counter<K, S>): Counter<K, S> => c;

/** The statements build column names at run time: the table types are not checked here. */
const loose = (db: Db) => db as unknown as Kysely<any>;

/** A counter's sum column names (for ./counterAudit and ./counterStatement too). */
export const sumColumns = <S extends string>(c: Counter<string, S>) => Object.keys(c.sums) as S[];

export function compareKeys<K extends string>(keys: readonly K[], a: CounterKey<K>, b: CounterKey<K>): number {
  for (const k of keys) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

export const describeKey = <K extends string>(keys: readonly K[], key: CounterKey<K>) =>
  keys.map((k) => `${k} ${key[k]}`).join(', ');

/**
 * Moves one counted row from key `from` (null: a new row) to key `to`, with what it adds to each sum,
 * in the caller's transaction and as its last write. The two counter rows are taken in ascending key
 * order (every writer does), so none waits on anything while holding one.
 */
export async function moveCounter<K extends string, S extends string>(
  db: Db,
  c: Counter<K, S>,
  from: CounterKey<K> | null,
  to: CounterKey<K>,
  values: Readonly<Record<S, bigint>>,
): Promise<void> {
  const deltas = new CounterDeltas(c);
  deltas.move(from, to, values);
  await deltas.apply(db);
}

/** The net change of one counter row: rows added (`n`, may be negative) and what they add to each sum. */
interface Delta<K extends string> {
  key: CounterKey<K>;
  n: bigint;
  sums: Record<string, bigint>;
}

/**
 * The net moves of one counter within a transaction, merged per key: a batch that moves a thousand rows
 * between the same two keys writes two counter rows once each, not two thousand times.
 */
export class CounterDeltas<K extends string, S extends string> {
  private readonly byKey = new Map<string, Delta<K>>();
  constructor(readonly c: Counter<K, S>) {}

  private at(key: CounterKey<K>): Delta<K> {
    const id = JSON.stringify(this.c.keys.map((k) => key[k]));
    let d = this.byKey.get(id);
    if (!d) {
      d = { key, n: 0n, sums: Object.fromEntries(sumColumns(this.c).map((s) => [s, 0n])) };
      this.byKey.set(id, d);
    }
    return d;
  }

  /** `count` rows (default 1) move from `from` (null: new rows) to `to` (null: rows deleted). */
  move(from: CounterKey<K> | null, to: CounterKey<K> | null, values: Readonly<Record<S, bigint>>, count = 1n) {
    for (const [key, sign] of [
      [to, 1n],
      [from, -1n],
    ] as const) {
      if (key === null) continue;
      const d = this.at(key);
      d.n += sign * count;
      for (const s of sumColumns(this.c)) d.sums[s] += sign * values[s];
    }
  }

  /**
   * Writes the net deltas, keys taken in ascending order: a net rise (a key whose count does not fall)
   * is an upsert (the first row of a key makes its counter row); a net fall is an UPDATE that must hit
   * exactly one row (an upsert would CHECK its negative candidate row first): a missing row throws.
   * Keys whose moves cancel out are not written. A few keys are written one by one; many (a settlement
   * batch moves a thousand members' rows) in a handful of statements — see `applyMany`.
   */
  async apply(db: Db): Promise<void> {
    const deltas = [...this.byKey.values()]
      .filter((d) => d.n !== 0n || Object.values(d.sums).some((v) => v !== 0n))
      .sort((a, b) => compareKeys(this.c.keys, a.key, b.key));
    this.byKey.clear();
    if (deltas.length > FEW_KEYS) return applyMany(db, this.c, deltas);
    for (const d of deltas) {
      if (d.n < 0n) await fall(db, this.c, d);
      else await rise(db, this.c, [d]);
    }
  }
}

/** Up to this many keys a transaction's moves of a counter are written one statement per key. */
const FEW_KEYS = 8;
/** Counter rows per statement (≤ 8 columns each: well under SQLite's 32,766 parameters). */
const ROWS_PER_STATEMENT = 500;

const chunks = <T>(xs: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

/** A CHECK constraint refused the write (a counter's `n >= 0`): PostgreSQL 23514, SQLite's message. */
const isCheckViolation = (err: unknown) => {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '23514' || (typeof e?.message === 'string' && e.message.includes('CHECK constraint failed'));
};

/**
 * Many keys' deltas (ascending), in two sweeps of a few statements each:
 * 1. every key's counter row is taken in ascending key order — made (zero) when missing, row-locked by
 *    a no-op update when present — by multi-row upserts of 500 keys, so any two writers (this path or
 *    the one-key-at-a-time one) take counter rows in one order and cannot deadlock;
 * 2. the deltas are added by one UPDATE per 500 keys joined to them, every row now held.
 * A fall of a key that had no row meets its zero row and the `n >= 0` check: refused, rolled back.
 */
async function applyMany<K extends string>(db: Db, c: Counter<K, string>, deltas: Delta<K>[]): Promise<void> {
  const sums = sumColumns(c);
  const keyTypes: BulkType[] = c.keys.map((k) => (typeof deltas[0].key[k] === 'string' ? 'text' : 'bigint'));
  const rowOf = (d: Delta<K>) => [...c.keys.map((k) => d.key[k]), d.n, ...sums.map((s) => d.sums[s])];
  const columns = sql.join([...c.keys, 'n', ...sums].map((col) => sql.id(col)));
  const types: BulkType[] = [...keyTypes, 'bigint', ...sums.map((): BulkType => 'bigint')];
  const t = sql.table(c.table);
  const joined = sql.join(
    c.keys.map((k) => sql`${sql.ref(`${c.table}.${k}`)} = ${sql.ref(`v.${k}`)}`),
    sql` and `,
  );
  const parts = chunks(deltas, ROWS_PER_STATEMENT);
  for (const part of parts)
    await loose(db)
      .insertInto(c.table)
      .values(
        part.map((d) => ({
          ...Object.fromEntries(c.keys.map((k) => [k, d.key[k]])),
          n: 0n,
          ...Object.fromEntries(sums.map((s) => [s, 0n])),
        })),
      )
      .onConflict((oc) => oc.columns([...c.keys]).doUpdateSet({ n: sql`${sql.ref(`${c.table}.n`)}` }))
      .execute();
  const set = sql.join(
    ['n', ...sums].map((col) => sql`${sql.id(col)} = ${sql.ref(`${c.table}.${col}`)} + ${sql.ref(`v.${col}`)}`),
  );
  for (const part of parts) {
    const r = await refuseOverflow(() =>
      sql`with v(${columns}) as (${bulkRows(db, types, part.map(rowOf))})
        update ${t} set ${set} from v where ${joined}`.execute(db),
    ).catch((err: unknown) => {
      if (!isCheckViolation(err)) throw err;
      throw new Error(
        `${c.table}: a fall below zero among ${part.length} keys (a key with no row, or fewer rows than moved)`,
      );
    });
    if (Number(r.numAffectedRows) !== part.length)
      throw new Error(`${c.table}: ${Number(r.numAffectedRows)} of ${part.length} counter rows updated`);
  }
}

/** Upserts the rising deltas (ascending keys) in one statement. */
async function rise<K extends string>(db: Db, c: Counter<K, string>, ds: Delta<K>[]): Promise<void> {
  const sums = sumColumns(c);
  const added: Record<string, RawBuilder<unknown>> = { n: sql`${sql.ref(`${c.table}.n`)} + excluded.n` };
  for (const s of sums) added[s] = sql`${sql.ref(`${c.table}.${s}`)} + excluded.${sql.id(s)}`;
  await refuseOverflow(() =>
    loose(db)
      .insertInto(c.table)
      .values(
        ds.map((d) => ({
          ...Object.fromEntries(c.keys.map((k) => [k, d.key[k]])),
          n: d.n,
          ...Object.fromEntries(sums.map((s) => [s, d.sums[s]])),
        })),
      )
      .onConflict((oc) => oc.columns([...c.keys]).doUpdateSet(added))
      .execute(),
  );
}

async function fall<K extends string>(db: Db, c: Counter<K, string>, d: Delta<K>): Promise<void> {
  const taken: Record<string, RawBuilder<unknown>> = { n: sql`n + ${d.n}` };
  for (const s of sumColumns(c)) taken[s] = sql`${sql.ref(s)} + ${d.sums[s]}`;
  let q = loose(db).updateTable(c.table).set(taken);
  for (const k of c.keys) q = q.where(k as string, '=', d.key[k]);
  const r = await refuseOverflow(() => q.executeTakeFirst());
  if (Number(r.numUpdatedRows) !== 1) throw new Error(`${c.table} has no row for ${describeKey(c.keys, d.key)}`);
}

/**
 * A list's exact total and footer sums from its counter: the rows of `c` whose keys equal `where` (a key
 * left undefined matches any; a list of values matches any of them, none matches nothing), summed —
 * `n` and each sum column as decimal text of minor units.
 */
export async function readCounter<K extends string, S extends string>(
  db: Db,
  c: Counter<K, S>,
  where: Readonly<Partial<Record<K, number | string | readonly number[]>>>,
): Promise<{ n: number } & Record<S, string>> {
  // The shape: per key column, '-' (any), '=' (one value) or the length of its list; the values by
  // column name, a list's as `<column>_<i>`.
  const shape: string[] = [];
  const values: Record<string, unknown> = {};
  for (const k of c.keys) {
    const v: number | string | readonly number[] | undefined = where[k];
    if (Array.isArray(v)) {
      shape.push(String(v.length));
      listValues(values, k, v);
    } else if (v !== undefined) {
      shape.push('=');
      values[k] = v;
    } else shape.push('-');
  }
  const r = (await counterRead(c).executeTakeFirstOrThrow(db, shape, values)) as Record<string, unknown>;
  return { ...(r as Record<S, string>), n: Number(r.n) };
}

/** Each counter's read, compiled once per shape (ShapedQuery): every list with an exact total makes one. */
const counterReads = new WeakMap<Counter<string, string>, ShapedQuery<string[], Record<string, unknown>, unknown>>();

function counterRead(c: Counter<string, string>) {
  let read = counterReads.get(c);
  if (!read) {
    read = new ShapedQuery(
      (shape: string[]) => shape.join(','),
      (db, shape, v: Record<string, unknown>) => {
        let q = loose(db as Db)
          .selectFrom(c.table)
          .select([sql<number>`coalesce(sum(n), 0)`.as('n'), ...sumColumns(c).map((s) => moneySum(s).as(s))]);
        c.keys.forEach((k, j) => {
          const how = shape[j];
          if (how === '=') q = q.where(sql.ref(k), '=', v[k]);
          else if (how === '0') q = q.where(sql.ref(k), 'in', [-1]);
          else if (how !== '-') {
            q = q.where(sql.ref(k), 'in', listItems(v, k, Number(how)));
          }
        });
        return q;
      },
    );
    counterReads.set(c, read);
  }
  return read;
}
