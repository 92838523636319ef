/**
 * What the CSV and xlsx writers of server/export share: the export's spec and cell types, formula
 * defusing, backpressure. Callers import all of it through ./export.
 */
import type { Writable } from 'node:stream';
import { formatTime, SHANGHAI_OFFSET } from '../../domain/time';
import type { Bytes } from './bytes';
import type { Fields } from './pgCsvRow';

export type CellValue = string | number | null | undefined;

export interface ExportColumn<R> {
  /** Chinese header. */
  header: string;
  /** Column width in characters (xlsx only). */
  width?: number;
  value: (row: R) => CellValue;
  /**
   * The row's field this column shows unchanged (text or null), where `value` only reads it: a file
   * made from PostgreSQL's own CSV (./csvCopy.ts, ./xlsxCopy.ts) copies the field's bytes instead of
   * calling `value`.
   */
  field?: number;
  /**
   * How a CSV from COPY (./csvCopy.ts) writes this column from the row's bytes (./copyCells.ts): the bytes
   * csvCell(value(row)) would give, or false (nothing written) where it cannot, and `value` is asked.
   */
  csv?: CopyCell;
}

/**
 * Writes a column's CSV field from a COPY row's bytes (`buf`, where its fields lie in `f`) into `out`;
 * false, having written nothing, where it cannot.
 */
export type CopyCell = (buf: Buffer, f: Fields, out: Bytes) => boolean;

/**
 * A column showing field `field` of an array row as it is (text or null): its value reads the field,
 * and a CSV from COPY copies its bytes.
 */
export function shownColumn<R extends readonly unknown[]>(
  header: string,
  width: number,
  field: number,
): ExportColumn<R> {
  return { header, width, field, value: (r) => r[field] as CellValue };
}

/**
 * What a field of a row read by COPY becomes before the columns' `value`s read it: `int` a number (as
 * pg's int8 parser gives it; null for NULL), `text` a string (or null), `bytes` nothing — a field only
 * columns with `field` show, copied as bytes.
 */
export type CopyFieldKind = 'int' | 'text' | 'bytes';

/**
 * The same rows as `batches`, as PostgreSQL's CSV of them (server/db/pgCopy.ts), for the writers from COPY:
 * `fields` in the order of the query's select list, which is the order of the row arrays `value` reads.
 */
export interface CopyRows {
  fields: readonly CopyFieldKind[];
  /** The rows' bytes; `signal` aborts once the file's reader is gone (the query stops at once). */
  chunks: (signal?: AbortSignal) => AsyncIterable<Buffer>;
}

export interface ExportSpec<R> {
  /** What is exported, in Chinese: the file is named `${title}_YYYYMMDD.xlsx` and so is the sheet. */
  title: string;
  columns: ExportColumn<R>[];
  /** Rows in batches (keysetBatches); the next batch is asked for only when the last one is written. */
  batches: AsyncIterable<R[]>;
  /**
   * Where the database can write the rows as CSV itself (PostgreSQL): what a CSV or an xlsx is made from
   * instead (./csvCopy.ts, ./xlsxCopy.ts).
   */
  copy?: CopyRows;
}

const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * A spreadsheet opens a cell starting with = + - @ (or a tab/CR) as a formula: text cells from
 * members (names, accounts, remarks) get a leading apostrophe. Numbers and decimal strings pass.
 * One char code test per cell; the regex runs only for the rare cell that starts with one of them.
 */
export function defused(text: string): string {
  const c = text.charCodeAt(0);
  // = 61, + 43, - 45, @ 64, tab 9, CR 13
  if (c !== 61 && c !== 43 && c !== 45 && c !== 64 && c !== 9 && c !== 13) return text;
  return PLAIN_NUMBER.test(text) ? text : `'${text}`;
}

/**
 * The first bytes `defused` looks at (= + - @ tab CR), by byte: the writers from COPY
 * (./csvCopy.ts, ./xlsxCopy.ts) send a field starting with one to the batch writer's own path.
 */
export const FORMULA_START = new Uint8Array(256);
for (const c of [0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]) FORMULA_START[c] = 1;

/** CSV needs quotes around a field holding one of these. */
const CSV_QUOTE = /[",\r\n]/;
const DOUBLE_QUOTE = /"/g;

/** One CSV field: numbers as JS prints them, text defused and quoted only when it has to be. */
export function csvCell(v: CellValue): string {
  if (typeof v === 'number') return String(v);
  if (v === null || v === undefined || v === '') return '';
  const s = defused(v);
  return CSV_QUOTE.test(s) ? `"${s.replace(DOUBLE_QUOTE, '""')}"` : s;
}

/** A CSV's first line: the BOM (Excel then reads it as UTF-8) and the headers. */
export const csvHeaderLine = (columns: readonly { header: string }[]) =>
  `\ufeff${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;

/** Waits until `out` wants more, or is gone (a client that aborts destroys it without 'drain'). */
export async function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Ends `out` and waits until it has taken everything ('finish'), or is gone ('close': `end(cb)`
 * would never call back on a stream destroyed before it finished).
 */
export async function ended(out: Writable): Promise<void> {
  if (out.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('finish', done);
      out.off('close', done);
      resolve();
    };
    out.on('finish', done);
    out.on('close', done);
    out.end();
  });
}

/**
 * Rows per string handed to Utf8Batch.add: encoding one string of a few dozen rows (~5–20 KB) costs
 * less than a call per row, and the string is still short-lived garbage the young generation sweeps.
 */
export const ROWS_PER_WRITE = 32;

/**
 * A batch's text as UTF-8 bytes, appended a few rows at a time, handed on in one write. Encoding each short
 * row string while it is fresh costs less than building one string per batch and encoding that: the
 * batch's rope would be long to flatten and live long enough for the GC to promote it to the old
 * generation (the heap, and the RSS, then grow by a hundred MB before a full collection).
 */
export class Utf8Batch {
  private buf = Buffer.allocUnsafe(0);
  private used = 0;
  /** Recycle mode: the buffer the last take() handed out, written again after the next take(). */
  private spare = Buffer.allocUnsafe(0);

  /**
   * `recycle`: take() hands the bytes out in place and alternates between two buffers, no copy and no
   * allocation per batch — for a consumer that is done with a batch's bytes before the next take()
   * (the zip entry: its write() resolves once the deflater has consumed the chunk before). A fresh
   * multi-megabyte buffer per batch waits for the GC outside the heap (measured: 60 MB at the peak).
   */
  constructor(private readonly recycle = false) {}

  add(s: string): void {
    const room = s.length * 3; // UTF-8 bytes per UTF-16 unit, at most
    if (this.used + room > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.used + room, 64 * 1024));
      this.buf.copy(bigger, 0, 0, this.used);
      this.buf = bigger;
    }
    this.used += this.buf.write(s, this.used);
  }

  /**
   * The bytes so far. In recycle mode the next add() starts in the other buffer (the one the take()
   * before this handed out); otherwise the bytes are copied out, exactly sized, and the buffer is
   * kept: a consumer that holds a batch for a while (a socket, a compressor) then holds its bytes,
   * not the grown buffer's capacity (about three times as much).
   */
  take(): Buffer {
    const full = this.buf;
    const bytes = full.subarray(0, this.used);
    this.used = 0;
    if (!this.recycle) return Buffer.from(bytes);
    this.buf = this.spare;
    this.spare = full;
    return bytes;
  }
}

export const DAY_MS = 86_400_000;

/** Days whose date text a time column keeps (about 11 years); it starts over when full. */
export const DATES_KEPT = 4096;

/**
 * `f` for a column's value that repeats across rows (a mode's rate, a day): each distinct value
 * computed once, the memory started over past `keep` values. One per column (or per export).
 */
export function remembered<K, V>(f: (k: K) => V, keep = 4096): (k: K) => V {
  const known = new Map<K, V>();
  return (k) => {
    let v = known.get(k);
    if (v === undefined) {
      if (known.size >= keep) known.clear();
      known.set(k, (v = f(k)));
    }
    return v;
  };
}

/** "YYYY-MM-DD " of Shanghai day `d` (days since the epoch in Shanghai time): a time column's date part. */
export const dateTextOfDay = (d: number) => formatTime(d * DAY_MS - SHANGHAI_OFFSET).slice(0, -8);
