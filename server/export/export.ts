/**
 * The one export path of the server (payment methods now; pledges and orders later): a column spec
 * with Chinese headers and value formatters, rows read in keyset batches, written as a streaming
 * .xlsx (exceljs WorkbookWriter) or a UTF-8 CSV with BOM, sent as a file with a dated name.
 *
 * Memory stays constant whatever the row count: one batch is in memory at a time, and the next batch
 * is read only after the response stream has drained (the client's pace sets the database's pace).
 *
 *   return sendExport(reply, {
 *     title: '收款方式',
 *     columns: [{ header: 'ID', value: (r) => r.id }, …],
 *     batches: keysetBatches((afterId, limit) => repo.page(db, filter, afterId, limit), (r) => r.id),
 *   }, query.format, ctx.clock.now());
 */
import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { SHANGHAI_OFFSET } from '../../domain/time';
import { StringEnum } from '../http/schemas';

export type ExportFormat = 'xlsx' | 'csv';

/** The `format` query parameter every export takes. */
export const ExportFormatQuery = {
  format: Type.Optional(StringEnum(['xlsx', 'csv'], { title: '导出格式', description: 'xlsx (default) or csv' })),
};

/** The OpenAPI response of an export: a file, not the JSON envelope. */
export const ExportFileResponse = {
  200: {
    description: '文件（.xlsx，或 format=csv 时 .csv）；Content-Disposition 带文件名',
    content: {
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
        schema: { type: 'string', format: 'binary' },
      },
      'text/csv': { schema: { type: 'string', format: 'binary' } },
    },
  },
};

export type CellValue = string | number | null | undefined;

export interface ExportColumn<R> {
  /** Chinese header. */
  header: string;
  /** Column width in characters (xlsx only). */
  width?: number;
  value: (row: R) => CellValue;
}

export interface ExportSpec<R> {
  /** What is exported, in Chinese: the file is named `${title}_YYYYMMDD.xlsx` and so is the sheet. */
  title: string;
  columns: ExportColumn<R>[];
  /** Rows in batches (keysetBatches); the next batch is asked for only when the last one is written. */
  batches: AsyncIterable<R[]>;
}

/** Rows per database read: large enough that round trips do not dominate, small enough to stay constant. */
export const EXPORT_BATCH_SIZE = 2000;

/**
 * Reads rows newest first by id in keyset batches: `fetch(afterId, limit)` must return rows with
 * id < afterId (all when afterId is null) ordered by id descending. Never OFFSET, never all rows.
 */
export async function* keysetBatches<R>(
  fetch: (afterId: number | null, limit: number) => Promise<R[]>,
  idOf: (row: R) => number,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<R[]> {
  let after: number | null = null;
  for (;;) {
    const rows = await fetch(after, batchSize);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    after = idOf(rows[rows.length - 1]);
  }
}

/** YYYYMMDD of `now` in Asia/Shanghai. */
export function shanghaiDate(now: number): string {
  const d = new Date(now + SHANGHAI_OFFSET);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}`;
}

export const exportFileName = (title: string, format: ExportFormat, now: number) =>
  `${title}_${shanghaiDate(now)}.${format}`;

/** RFC 6266 header: an ASCII fallback plus the UTF-8 name percent-encoded (RFC 5987 `filename*`). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '') || 'export';
  // A Chinese title leaves "_20261123.xlsx": old clients still get a readable name.
  const fallback = /^[A-Za-z0-9]/.test(ascii) ? ascii : `export${ascii}`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/**
 * A spreadsheet opens a cell starting with = + - @ (or a tab/CR) as a formula: text cells from
 * members (names, accounts, remarks) get a leading apostrophe. Numbers and decimal strings pass.
 */
function defused(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

function csvCell(v: CellValue): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(v) : defused(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Waits until `out` wants more, or is gone (a client that aborts destroys it without 'drain'). */
async function drained(out: Writable): Promise<void> {
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

/** Bytes the xlsx pipeline may hold (uncompressed XML + compressed output) before the next batch waits. */
const XLSX_BACKLOG = 1024 * 1024;

interface XlsxInternals {
  /** archiver: its output not yet taken by `out`. */
  zip?: { readableLength?: number; _writableState?: { length?: number } };
}
interface SheetStream {
  /** exceljs StreamBuf: chunks not yet handed on, and where it hands them (the zip's deflater). */
  buffers?: unknown[];
  pipes?: Array<{ _writableState?: { length?: number }; _readableState?: { length?: number } }>;
}

/**
 * exceljs hands rows to its zip without backpressure, so waiting on `out` alone is not enough: a fast
 * database would pile XML up in front of the deflater. Measure every buffer on the way and wait while
 * they hold more than XLSX_BACKLOG, i.e. while the reader (or the compressor) is slower than we read.
 */
function xlsxBacklog(workbook: unknown, sheet: unknown): () => number {
  const zip = (workbook as XlsxInternals).zip;
  const stream = (sheet as { stream?: SheetStream }).stream;
  return () =>
    (zip?.readableLength ?? 0) +
    (zip?._writableState?.length ?? 0) +
    (stream?.buffers?.length ?? 0) * 65536 +
    (stream?.pipes ?? []).reduce((n, p) => n + (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0), 0);
}

async function xlsxDrained(backlog: () => number, out: Writable): Promise<void> {
  await drained(out);
  while (backlog() > XLSX_BACKLOG && !out.destroyed) {
    await new Promise((r) => setTimeout(r, 5));
    await drained(out);
  }
}

async function writeCsv<R>(spec: ExportSpec<R>, out: Writable): Promise<number> {
  let count = 0;
  out.write(`\ufeff${spec.columns.map((c) => csvCell(c.header)).join(',')}\r\n`);
  for await (const batch of spec.batches) {
    let chunk = '';
    for (const row of batch) chunk += `${spec.columns.map((c) => csvCell(c.value(row))).join(',')}\r\n`;
    count += batch.length;
    if (out.destroyed) break;
    out.write(chunk);
    await drained(out);
  }
  out.end();
  return count;
}

async function writeXlsx<R>(spec: ExportSpec<R>, out: Writable): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(spec.title.slice(0, 31));
  const backlog = xlsxBacklog(workbook, sheet);
  sheet.columns = spec.columns.map((c, i) => ({ key: String(i), width: c.width ?? 16 }));
  sheet.addRow(spec.columns.map((c) => c.header)).commit();
  let count = 0;
  for await (const batch of spec.batches) {
    for (const row of batch) {
      sheet
        .addRow(
          spec.columns.map((c) => {
            const v = c.value(row);
            return typeof v === 'string' ? defused(v) : (v ?? null);
          }),
        )
        .commit();
    }
    count += batch.length;
    if (out.destroyed) break;
    await xlsxDrained(backlog, out);
  }
  if (out.destroyed) return count; // the client went away: nothing left to finish
  sheet.commit();
  await workbook.commit();
  return count;
}

/** Writes the whole export to `out` (ends it); resolves with the number of data rows. */
export function writeExport<R>(spec: ExportSpec<R>, format: ExportFormat, out: Writable): Promise<number> {
  return format === 'csv' ? writeCsv(spec, out) : writeXlsx(spec, out);
}

/**
 * Sends the export as the route's reply. Validate the input before calling: once the headers are out,
 * a failure can only cut the download short (logged), never become an envelope.
 */
export function sendExport<R>(
  reply: FastifyReply,
  spec: ExportSpec<R>,
  format: ExportFormat | undefined,
  now: number,
): FastifyReply {
  const f: ExportFormat = format ?? 'xlsx';
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  writeExport(spec, f, out).catch((err: unknown) => {
    reply.log.error({ err }, `export ${spec.title} failed`);
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return reply
    .header('content-type', CONTENT_TYPES[f])
    .header('content-disposition', contentDisposition(exportFileName(spec.title, f, now)))
    .header('cache-control', 'no-store')
    .send(out);
}
