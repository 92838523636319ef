/**
 * Keyset paging for the big lists (members, bills, withdrawals): the page after (or before) a row of the page the
 * operator is looking at, found through the index instead of counting past every earlier row, so page
 * 40,000 costs what page 1 costs. A cursor is `<sort value>_<id>` of that row; a list answers `next`
 * (its last row) and `prev` (its first row), and the console sends one of them with 下一页 / 上一页.
 * A page number alone still works (OFFSET) while it stays within MAX_OFFSET rows; deeper than that
 * only cursors go (see docs/decisions.md "Paging").
 */
import {
  sql,
  type ExpressionBuilder,
  type Expression,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { CURSOR_PATTERN, MAX_OFFSET } from '../../domain/paging';
import { badInput } from '../errors';
import { dialectOf } from './dialect';

export { CURSOR_PATTERN, MAX_OFFSET };

export interface Keyset {
  /** 'after': the rows that follow the cursor row in the list's order; 'before': those that precede it. */
  dir: 'after' | 'before';
  /** The sort column's value at the cursor row (its id again when the list is ordered by id). */
  value: number;
  id: number;
}

const CURSOR = new RegExp(CURSOR_PATTERN);

export const cursorOf = (value: number, id: number) => `${value}_${id}`;

/** Reads `after` / `before` of a list query (validated by CURSOR_PATTERN already; checked again here). */
export function parseKeyset(q: { after?: string; before?: string }): Keyset | undefined {
  if (q.after !== undefined && q.before !== undefined) throw badInput('翻页位置只能给一个（after 或 before）');
  const raw = q.after ?? q.before;
  if (raw === undefined || raw === '') return undefined;
  if (!CURSOR.test(raw)) throw badInput('翻页位置格式不正确');
  const [value, id] = raw.split('_').map(Number);
  if (!Number.isSafeInteger(value) || !Number.isSafeInteger(id)) throw badInput('翻页位置格式不正确');
  return { dir: q.after !== undefined ? 'after' : 'before', value, id };
}

/**
 * A `before` cursor with id 0 names no row (ids start at 1): it is a 末页 link, the rows before the end
 * of the list, whatever its sort value. The console's end cursor lies past every sort value; a link
 * bookmarked before it did (`before=0_0`) would otherwise miss a list's negative values (排序).
 */
export const isEndOfList = (k: Keyset) => k.dir === 'before' && k.id === 0;

/** Refuses a page number deeper than MAX_OFFSET rows when no cursor says where to start. */
export function checkOffset(offset: number, keyset: Keyset | undefined): void {
  if (!keyset && offset > MAX_OFFSET) {
    throw badInput(`页码过大：按页码只能翻到前 ${MAX_OFFSET} 条，请用上一页/下一页翻页或缩小筛选范围`);
  }
}

/**
 * A list query's page: its number and size (1 and 20 unless given), the offset of its first row and its
 * cursor, both checked (parseKeyset, checkOffset).
 */
export function pageOf(q: { page?: number; size?: number; after?: string; before?: string }) {
  const page = q.page ?? 1;
  const size = q.size ?? 20;
  const keyset = parseKeyset(q);
  const offset = (page - 1) * size;
  checkOffset(offset, keyset);
  return { page, size, offset, keyset };
}

/** The direction the query reads in: a `before` page reads backwards from the cursor (then is reversed). */
export function readOrder(order: 'asc' | 'desc', k: Keyset | undefined): 'asc' | 'desc' {
  if (k?.dir !== 'before') return order;
  return order === 'asc' ? 'desc' : 'asc';
}

/**
 * The rows strictly past the cursor in reading order: `(col, id) < (value, id)` for a descending read
 * (a row value: PostgreSQL seeks it through a (col, id) index on both columns, SQLite on the first only,
 * see twoPartSlice), or `id < value` when the list is ordered by id alone.
 */
export function keysetWhere<DB, TB extends keyof DB>(
  _eb: ExpressionBuilder<DB, TB>,
  col: string | Expression<unknown>,
  idCol: string,
  order: 'asc' | 'desc',
  k: Keyset,
): Expression<SqlBool> {
  const op = readOrder(order, k) === 'desc' ? sql.raw('<') : sql.raw('>');
  if (col === idCol) return sql<SqlBool>`${sql.ref(idCol)} ${op} ${k.id}`;
  const c = typeof col === 'string' ? sql.ref(col) : col;
  // The value as bigint: PostgreSQL would take the parameter as the column's type, and an int4 column
  // (a product's 排序) would refuse a cursor value past it, up to ±2^53 (the row comparison still seeks
  // the index). The console's end cursors never get here (isEndOfList).
  return sql<SqlBool>`(${c}, ${sql.ref(idCol)}) ${op} (cast(${k.value} as bigint), ${k.id})`;
}

/** A page of a list: by page number (`offset`) or from a cursor, in the list's order of its sort column. */
export interface KeysetPageRequest {
  offset: number;
  limit: number;
  order: 'asc' | 'desc';
  keyset?: Keyset;
}

/**
 * The page's rows chosen alone: those past the cursor (when there is one), read in the order of the sort
 * column then the id (`readOrder`), from `offset` without a cursor, at most `limit`. `afterLookup`: the
 * filter finds a few rows through another index (some members' rows), so the order terms are `+ 0`
 * and those rows are sorted instead of walking the sort index and testing each row.
 */
export function keysetSlice<Q extends SelectQueryBuilder<any, any, any>>(
  q: Q,
  page: KeysetPageRequest,
  cols: {
    sort: string | Expression<unknown>;
    id: string;
    afterLookup: boolean;
    /** The sort column holds many equal values (a day): on SQLite a cursor page is read in two parts. */
    manyEqual?: { db: Kysely<any> };
  },
): Q {
  const k = page.keyset;
  const order = readOrder(page.order, k);
  const term = (col: string | Expression<unknown>) => {
    const ref = typeof col === 'string' ? sql.ref(col) : col;
    return cols.afterLookup ? sql`${ref} + 0` : ref;
  };
  const db = cols.manyEqual?.db;
  const seek = k && !isEndOfList(k) ? k : undefined;
  if (
    seek &&
    db &&
    !cols.afterLookup &&
    typeof cols.sort === 'string' &&
    cols.sort !== cols.id &&
    dialectOf(db) === 'sqlite'
  ) {
    return twoPartSlice(db, q, page, seek, { sort: cols.sort, id: cols.id }) as Q;
  }
  let s = q as SelectQueryBuilder<any, any, any>;
  if (seek) s = s.where((eb) => keysetWhere(eb, cols.sort, cols.id, page.order, seek));
  s = s.orderBy(term(cols.sort), order);
  if (cols.sort !== cols.id) s = s.orderBy(term(cols.id), order);
  return s.offset(k ? 0 : page.offset).limit(page.limit) as Q;
}

/**
 * SQLite seeks a row value `(sort, id) < (v, k)` on its first column only: with many rows sharing the
 * cursor's sort value (a day of releases: hundreds of thousands) it reads all of that value's rows from
 * the top before reaching the cursor. Read in two parts instead, each a seek with its own limit — the
 * rest of the cursor's value (`sort = v and id < k`), then the values past it (`sort < v`) — and keep
 * the first `limit` rows of both in the list's order. The same rows, in the same order, as one part.
 */
function twoPartSlice(
  db: Kysely<any>,
  q: SelectQueryBuilder<any, any, any>,
  page: KeysetPageRequest,
  k: Keyset,
  cols: { sort: string; id: string },
) {
  const order = readOrder(page.order, k);
  const op = order === 'desc' ? '<' : '>';
  const rest = q
    .where(sql.ref(cols.sort), '=', k.value)
    .where(sql.ref(cols.id), op, k.id)
    .orderBy(sql.ref(cols.id), order)
    .limit(page.limit);
  const past = q
    .where(sql.ref(cols.sort), op, k.value)
    .orderBy(sql.ref(cols.sort), order)
    .orderBy(sql.ref(cols.id), order)
    .limit(page.limit);
  const both = db
    .selectFrom(rest.as('rest'))
    .selectAll()
    .unionAll(db.selectFrom(past.as('past')).selectAll());
  const name = (col: string) => col.slice(col.lastIndexOf('.') + 1);
  return db
    .selectFrom(both.as('two'))
    .selectAll()
    .orderBy(sql.ref(`two.${name(cols.sort)}`), order)
    .orderBy(sql.ref(`two.${name(cols.id)}`), order)
    .limit(page.limit);
}

/**
 * Runs the query that shows a slice (aliased `p`, joined to what the list shows) in the read order of the
 * slice's `sort` column then its id, and answers the page as the list shows it, with its cursors.
 */
export async function readKeysetPage<R extends { id: unknown }>(
  q: SelectQueryBuilder<any, any, R>,
  page: KeysetPageRequest,
  sort: keyof R & string,
): Promise<{ rows: R[]; next: string | null; prev: string | null }> {
  return keysetPageOf(await inReadOrder(q, page, sort).execute(), page, sort);
}

/** The query that shows a slice (aliased `p`) ordered for reading its page (readKeysetPage). */
export function inReadOrder<Q extends SelectQueryBuilder<any, any, any>>(
  q: Q,
  page: Pick<KeysetPageRequest, 'order' | 'keyset'>,
  sort: string,
): Q {
  const order = readOrder(page.order, page.keyset);
  const s = q.orderBy(sql.ref(`p.${sort}`), order);
  return (sort !== 'id' ? s.orderBy(sql.ref('p.id'), order) : s) as Q;
}

/** The rows read in inReadOrder as the page shows them, with its cursors (`sort`: the cursor's field). */
export function keysetPageOf<R extends { id: unknown }>(
  rows: R[],
  page: Pick<KeysetPageRequest, 'keyset'>,
  sort: keyof R & string,
): { rows: R[]; next: string | null; prev: string | null } {
  return keysetPage(
    rows,
    page.keyset,
    (r) => Number(r[sort]),
    (r) => Number(r.id),
  );
}

/** Rows as the list shows them (a `before` read is reversed back) and the cursors of its ends. */
export function keysetPage<R>(
  rows: R[],
  k: Keyset | undefined,
  cursorValue: (row: R) => number,
  idOf: (row: R) => number,
): { rows: R[]; next: string | null; prev: string | null } {
  const out = k?.dir === 'before' ? rows.slice().reverse() : rows;
  if (!out.length) return { rows: out, next: null, prev: null };
  const first = out[0];
  const last = out[out.length - 1];
  return {
    rows: out,
    next: cursorOf(cursorValue(last), idOf(last)),
    prev: cursorOf(cursorValue(first), idOf(first)),
  };
}
