/**
 * Where an export's rows come from (callers import all of it through ./export): keyset batches of the
 * database's rows, and for an export whose rows are arrays, the same rows by COPY on PostgreSQL
 * (arrayRows); the first columns the money records' exports share.
 */
import type { ExportCtx } from '../context';
import type { DbSource } from '../db/dialect';
import { shownColumn, type CopyRows, type ExportColumn, type ExportSpec } from './common';

/** Rows per database read: large enough that round trips do not dominate, small enough to stay constant. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Reads rows newest first by id in keyset batches: `fetch(afterId, limit)` must return rows with
 * id < afterId (all when afterId is null) ordered by id descending, in an array of its own. Never
 * OFFSET, never all rows.
 *
 * A batch is emptied (`length = 0`) once the writer asks for the next one: the driver can keep its
 * result array reachable from garbage in the old generation (pg does: every row of a million-row
 * export then survived two scavenges and was promoted, ~500 MB, and the heap grew by ~80 MB before a
 * full collection); emptied, the rows die young whatever still points at the array.
 */
export async function* keysetBatches<R>(
  fetch: (afterId: number | null, limit: number) => Promise<R[]>,
  idOf: (row: R) => number,
  batchSize = EXPORT_BATCH_SIZE,
  readAhead = false,
): AsyncGenerator<R[]> {
  let pending: Promise<R[]> | null = fetch(null, batchSize);
  while (pending) {
    const rows: R[] = await pending;
    const n = rows.length;
    const next = () => (n === batchSize ? fetch(idOf(rows[n - 1]), batchSize) : null);
    // readAhead: the next batch is asked for before this one is written, so that PostgreSQL reads it
    // (another process, another core) while this one is formatted; a failed read surfaces when its batch
    // is awaited. Not on SQLite, whose driver answers at once: two batches would only be alive together.
    pending = readAhead ? next() : null;
    pending?.catch(() => undefined);
    if (n > 0) yield rows;
    if (!readAhead) pending = next();
    rows.length = 0;
  }
}

/** Whether an export's batches should be read ahead (keysetBatches): on PostgreSQL. */
export const readsAhead = (ctx: ExportCtx) => ctx.kind === 'postgres';

/**
 * The rows of an export whose rows are arrays with the id first: keyset batches of `batch`, and on
 * PostgreSQL, where a connection of its own can be opened, the same rows by `copy` for the writers from
 * COPY (CSV and xlsx).
 */
export function arrayRows<R extends readonly [number, ...unknown[]], F>(
  ctx: ExportCtx,
  filter: F,
  batch: (db: ExportCtx['db'], f: F, afterId: number | null, limit: number) => Promise<R[]>,
  copy: (db: ExportCtx['db'], source: DbSource, f: F) => CopyRows,
  batchSize?: number,
): Pick<ExportSpec<R>, 'batches' | 'copy'> {
  return {
    batches: keysetBatches(
      (after, limit) => batch(ctx.db, filter, after, limit),
      (r) => Number(r[0]),
      batchSize,
      readsAhead(ctx),
    ),
    copy: ctx.kind === 'postgres' && ctx.dbSource ? copy(ctx.db, ctx.dbSource, filter) : undefined,
  };
}

/**
 * The first columns of a money record's export (收款方式, 提现/提取记录, 充值记录, 质押记录): its ID, then its
 * member's UID, phone and nickname, fields of an array row shown as they are.
 */
export function idAndMemberColumns<R extends readonly unknown[]>(c: {
  id: number;
  uid: number;
  phone: number;
  nickname: number;
}): ExportColumn<R>[] {
  return [
    { header: 'ID', width: 10, value: (r) => Number(r[c.id]) },
    shownColumn<R>('会员UID', 12, c.uid),
    shownColumn<R>('手机号', 14, c.phone),
    shownColumn<R>('昵称', 14, c.nickname),
  ];
}
