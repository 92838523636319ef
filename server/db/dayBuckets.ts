/**
 * Day and 32-day block buckets of the append-only tables' counters (bill_stat, transfer_stat, order_day_stat): a row is
 * counted in its Asia/Shanghai day (kind 'D', bucket = day number) and in that day's block (kind 'B',
 * bucket = day number / BLOCK_DAYS), so the exact count and sums of any date range read whole blocks,
 * whole days and at most two part-days (read from the rows themselves). See docs/decisions.md "Bills".
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { SHANGHAI_OFFSET } from '../../domain/time';
import { refuseOverflow } from './overflow';
import type { Database } from './schema';
import { moneySum } from './sql';
import { ShapedQuery } from './shapes';

type Db = Kysely<Database> | Transaction<Database>;

export const DAY_MS = 86_400_000;
/** Days per 'B' row of a stat table. */
export const BLOCK_DAYS = 32;
/** The Asia/Shanghai day number of an epoch-ms time: a stat table's 'D' bucket. */
export const dayOf = (ms: number) => Math.floor((ms + SHANGHAI_OFFSET) / DAY_MS);
/** Epoch ms at which Asia/Shanghai day number `day` starts. */
export const dayStart = (day: number) => day * DAY_MS - SHANGHAI_OFFSET;
/** YYYY-MM-DD of an Asia/Shanghai day number. */
export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Day and block ranges [from, to) of a stat table, and the part-days [from, to) in ms read from the rows. */
export interface StatRanges {
  days: Array<[number, number]>;
  blocks: Array<[number, number]>;
  partial: Array<[number, number]>;
}

/** The day number past any row: an open end of a range. */
const FAR_DAY = 10_000_000;

/**
 * Splits [start, end] (epoch ms, both optional and inclusive) into whole 32-day blocks, whole days and
 * at most two part-days, so that a range of years reads a few dozen stat rows per key.
 */
export function statRanges(start?: number, end?: number): StatRanges {
  const out: StatRanges = { days: [], blocks: [], partial: [] };
  const endExcl = end === undefined ? undefined : end + 1;
  if (start !== undefined && endExcl !== undefined && endExcl <= start) return out;
  let fd = 0;
  if (start !== undefined) {
    fd = dayOf(start);
    if (dayStart(fd) < start) fd += 1;
  }
  let ld = FAR_DAY;
  if (endExcl !== undefined) ld = dayOf(endExcl);
  if (fd >= ld) {
    // No whole day inside: at most one stretch of rows, read directly.
    out.partial.push([start ?? 0, endExcl ?? Number.MAX_SAFE_INTEGER]);
    return out;
  }
  if (start !== undefined && start < dayStart(fd)) out.partial.push([start, dayStart(fd)]);
  if (endExcl !== undefined && dayStart(ld) < endExcl) out.partial.push([dayStart(ld), endExcl]);
  const fb = Math.ceil(fd / BLOCK_DAYS);
  const lb = Math.floor(ld / BLOCK_DAYS);
  if (fb < lb) {
    if (fd < fb * BLOCK_DAYS) out.days.push([fd, fb * BLOCK_DAYS]);
    out.blocks.push([fb, lb]);
    if (lb * BLOCK_DAYS < ld) out.days.push([lb * BLOCK_DAYS, ld]);
  } else {
    out.days.push([fd, ld]);
  }
  return out;
}

/** Count and money sums (exact text) of one asset; `n` as the driver reads a count or a sum of counts. */
export type AssetSumRow<S extends string> = { asset: string; n: number | string } & Record<S, string>;
export type AssetSums<S extends string> = { asset: string; n: number } & Record<S, string>;

/** A day/block stat table (bill_stat, transfer_stat, order_day_stat): the money sums it keeps, and what it is filtered by. */
export interface BucketStat<S extends string> {
  table: 'bill_stat' | 'transfer_stat' | 'order_day_stat';
  /** Each sum as it is answered, and the stat column that holds it. */
  sums: Readonly<Record<S, string>>;
  /** Stat key columns and the value each must have (undefined or '': not filtered). */
  where: Readonly<Record<string, string | number | undefined>>;
}

/**
 * Exact count and sums per asset of a date range [start, end] (epoch ms, both optional): the stat rows
 * of its whole days and blocks, plus `rowsOf(from, to)` (inclusive) counted from the rows themselves for
 * each part-day. Only for append-only tables, whose stat rows (written with each row) are exact. Assets
 * with no rows are left out; the rest come sorted by asset.
 */
export async function sumByAsset<S extends string>(
  db: Db,
  stat: BucketStat<S>,
  range: { start?: number; end?: number },
  rowsOf: (from: number, to: number) => Promise<Array<AssetSumRow<NoInfer<S>>>>,
): Promise<Array<AssetSums<S>>> {
  const r = statRanges(range.start, range.end);
  const sums = Object.keys(stat.sums) as S[];
  const parts: Array<Promise<Array<AssetSumRow<S>>>> = [];
  if (r.days.length || r.blocks.length) parts.push(bucketRows(db, stat, r));
  for (const [a, b] of r.partial) parts.push(rowsOf(a, b - 1));
  const byAsset = new Map<string, { n: number; sums: bigint[] }>();
  for (const rows of await Promise.all(parts)) {
    for (const row of rows) {
      const acc = byAsset.get(row.asset) ?? { n: 0, sums: sums.map(() => 0n) };
      acc.n += Number(row.n);
      sums.forEach((s, i) => (acc.sums[i] += BigInt(row[s])));
      byAsset.set(row.asset, acc);
    }
  }
  return [...byAsset.entries()]
    .filter(([, v]) => v.n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([asset, v]) =>
        ({ asset, n: v.n, ...Object.fromEntries(sums.map((s, i) => [s, v.sums[i].toString()])) }) as AssetSums<S>,
    );
}

/** The stat rows of the whole days and blocks of `r`, summed per asset. */
function bucketRows<S extends string>(db: Db, stat: BucketStat<S>, r: StatRanges): Promise<Array<AssetSumRow<S>>> {
  const where = Object.entries(stat.where).filter(([, value]) => value !== undefined && value !== '');
  const values: Record<string, unknown> = {};
  r.days.forEach(([a, b], i) => ((values[`day_${i}`] = a), (values[`day_end_${i}`] = b)));
  r.blocks.forEach(([a, b], i) => ((values[`block_${i}`] = a), (values[`block_end_${i}`] = b)));
  for (const [col, value] of where) values[`where_${col}`] = value;
  const shape: BucketShape = {
    table: stat.table,
    sums: stat.sums,
    where: where.map(([col]) => col),
    days: r.days.length,
    blocks: r.blocks.length,
  };
  return bucketRead.execute(db, shape, values) as Promise<Array<AssetSumRow<S>>>;
}

/** What of a bucket read changes its SQL: the table, its sums, the filtered columns, how many ranges. */
interface BucketShape {
  table: BucketStat<string>['table'];
  sums: Readonly<Record<string, string>>;
  where: string[];
  days: number;
  blocks: number;
}

/** The bucket read, compiled once per shape (ShapedQuery): every bill, transfer and order total makes one. */
const bucketRead = new ShapedQuery(
  (s: BucketShape) => `${s.table} ${Object.entries(s.sums).join(';')} ${s.where.join(',')} ${s.days} ${s.blocks}`,
  (db, s, v: Record<string, unknown>) => {
    // The three tables share kind, bucket, asset and n; the sum and filter columns are named at run time.
    let q = (db as unknown as Kysely<any>)
      .selectFrom(`${s.table} as s`)
      .select((eb) => [
        's.asset',
        eb.fn.sum('s.n').as('n'),
        ...Object.entries(s.sums).map(([as, col]) => moneySum(`s.${col}`).as(as)),
      ])
      .where((eb) =>
        eb.or([
          ...Array.from({ length: s.days }, (_x, i) =>
            eb.and([
              eb('s.kind', '=', 'D'),
              eb('s.bucket', '>=', v[`day_${i}`]),
              eb('s.bucket', '<', v[`day_end_${i}`]),
            ]),
          ),
          ...Array.from({ length: s.blocks }, (_x, i) =>
            eb.and([
              eb('s.kind', '=', 'B'),
              eb('s.bucket', '>=', v[`block_${i}`]),
              eb('s.bucket', '<', v[`block_end_${i}`]),
            ]),
          ),
        ]),
      );
    for (const col of s.where) q = q.where(`s.${col}`, '=', v[`where_${col}`]);
    return q.groupBy('s.asset');
  },
);

/**
 * A day/block stat table as written and checked: the table it counts (append-only, with `created_at`),
 * the key columns it shares with it besides kind and bucket, and each sum column with the column of the
 * source it sums. One descriptor serves the count with each row, the rebuild and the consistency check.
 */
export interface DayStat<K extends string, S extends string> {
  table: 'bill_stat' | 'transfer_stat' | 'order_day_stat';
  source: 'bill' | 'transfer' | 'mall_order';
  keys: readonly K[];
  sums: Readonly<Record<S, string>>;
}

/** Run-time column names: the tables' types are not checked here. */
const loose = (db: Db) => db as unknown as Kysely<any>;
/** The Asia/Shanghai day number of `created_at`, in SQL (integer division on both databases). */
const daySql = sql`(created_at + ${sql.lit(SHANGHAI_OFFSET)}) / ${sql.lit(DAY_MS)}`;

/**
 * Adds one row (or `n` rows of one key and time, `values` their sums) to its day and 32-day block: one
 * statement, the day row first (every writer takes the two row locks in that order), in the row's transaction.
 */
export async function countInDayStat<K extends string, S extends string>(
  db: Db,
  stat: DayStat<K, S>,
  createdAt: number,
  key: Readonly<Record<K, string | number>>,
  values: Readonly<Record<S, bigint>>,
  n = 1,
): Promise<void> {
  const day = dayOf(createdAt);
  const row = { ...key, n, ...values };
  const added: Record<string, RawBuilder<unknown>> = { n: sql`${sql.ref(`${stat.table}.n`)} + excluded.n` };
  for (const s of Object.keys(stat.sums)) added[s] = sql`${sql.ref(`${stat.table}.${s}`)} + excluded.${sql.id(s)}`;
  await refuseOverflow(() =>
    loose(db)
      .insertInto(stat.table)
      .values([
        { kind: 'D', bucket: day, ...row },
        { kind: 'B', bucket: Math.floor(day / BLOCK_DAYS), ...row },
      ])
      .onConflict((oc) => oc.columns(['kind', 'bucket', ...stat.keys]).doUpdateSet(added))
      .execute(),
  );
}

/** Recounts the stat table from its source (bulk loads that write rows directly). */
export async function rebuildDayStat<K extends string, S extends string>(db: Db, stat: DayStat<K, S>): Promise<void> {
  const sums = Object.keys(stat.sums) as S[];
  const keys = stat.keys.map((k) => sql.id(k));
  const columns = sql.join(['kind', 'bucket', ...stat.keys, 'n', ...sums].map((c) => sql.id(c)));
  await db.deleteFrom(stat.table).execute();
  await sql`insert into ${sql.table(stat.table)} (${columns})
    select 'D', ${daySql}, ${sql.join([...keys, sql`count(*)`, ...sums.map((s) => sql`sum(${sql.id(stat.sums[s])})`)])}
    from ${sql.table(stat.source)} group by ${sql.join([daySql, ...keys])}`.execute(db);
  await sql`insert into ${sql.table(stat.table)} (${columns})
    select 'B', bucket / ${sql.lit(BLOCK_DAYS)}, ${sql.join([
      ...keys,
      sql`sum(n)`,
      ...sums.map((s) => sql`sum(${sql.id(s)})`),
    ])}
    from ${sql.table(stat.table)} where kind = 'D'
    group by ${sql.join([sql`bucket / ${sql.lit(BLOCK_DAYS)}`, ...keys])}`.execute(db);
}

/** Stat rows that differ from the source rows themselves (empty when consistent); for tests and bulk loads. */
export async function dayStatViolations<K extends string, S extends string>(db: Db, stat: DayStat<K, S>) {
  const sums = Object.keys(stat.sums) as S[];
  const keys = stat.keys.map((k) => sql.id(k));
  const ref = (alias: string, col: string) => sql.ref(`${alias}.${col}`);
  const r = await sql<Record<'kind' | 'bucket' | K, string | number>>`
    with d as (
      select 'D' as kind, ${daySql} as bucket, ${sql.join([
        ...keys,
        sql`count(*) as n`,
        ...sums.map((s) => sql`sum(${sql.id(stat.sums[s])}) as ${sql.id(s)}`),
      ])}
      from ${sql.table(stat.source)} group by ${sql.join([daySql, ...keys])}),
    b as (select 'B' as kind, bucket / ${sql.lit(BLOCK_DAYS)} as bucket, ${sql.join([
      ...keys,
      sql`sum(n) as n`,
      ...sums.map((s) => sql`sum(${sql.id(s)}) as ${sql.id(s)}`),
    ])}
          from d group by ${sql.join([sql`bucket / ${sql.lit(BLOCK_DAYS)}`, ...keys])}),
    want as (select * from d union all select * from b)
    select ${sql.join(['kind', 'bucket', ...stat.keys].map((c) => sql`coalesce(${ref('w', c)}, ${ref('s', c)}) as ${sql.id(c)}`))}
    from want w full outer join ${sql.table(stat.table)} s
      on ${sql.join(
        ['kind', 'bucket', ...stat.keys].map((c) => sql`${ref('s', c)} = ${ref('w', c)}`),
        sql` and `,
      )}
    where w.n is null or s.n is null or ${sql.join(
      ['n', ...sums].map((c) => sql`${ref('w', c)} <> ${ref('s', c)}`),
      sql` or `,
    )}`.execute(db);
  return r.rows;
}
