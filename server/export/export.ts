/**
 * The one export path of the server (payment methods now; pledges and orders later): a column spec
 * with Chinese headers and value formatters, rows read in keyset batches, written as a streaming
 * .xlsx (./xlsx: sheet XML by hand, zipped by ./zip) or a UTF-8 CSV with BOM, sent as a file with a
 * dated name.
 *
 * Memory stays constant whatever the row count: a batch is written only once the one before has
 * drained, so at most one batch waits in front of the response while the next is read (the client's
 * pace sets the database's pace).
 *
 *   return sendExport(reply, ctx, (c) => ({
 *     title: '收款方式',
 *     columns: [{ header: 'ID', value: (r) => r.id }, …],
 *     batches: keysetBatches((afterId, limit) => repo.page(c.db, filter, afterId, limit), (r) => r.id),
 *   }), query.format);
 */
import { PassThrough, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, RouteShorthandOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { SHANGHAI_OFFSET } from '../../domain/time';
import type { Ctx } from '../context';
import { StringEnum } from '../http/schemas';
import {
  csvCell,
  csvHeaderLine,
  DATES_KEPT,
  dateTextOfDay,
  DAY_MS,
  drained,
  ended,
  remembered,
  ROWS_PER_WRITE,
  Utf8Batch,
  type ExportSpec,
} from './common';
import { writeCsvFromCopy } from './csvCopy';
import { cutWhenStalled } from './stall';
import { writeXlsx } from './xlsx';
import { writeXlsxFromCopy } from './xlsxCopy';

export type { CellValue, CopyRows, ExportColumn, ExportSpec } from './common';
export { remembered, shownColumn } from './common';
export { copyDayNumberCell, copyIntCell, copyLabelCell, copyMoneyCell, copyTimeCell } from './copyCells';
export { arrayRows, EXPORT_BATCH_SIZE, idAndMemberColumns, keysetBatches, readsAhead } from './rows';

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

/**
 * Output chunk of the export's compressor (zlib's default is 16 KB): each chunk goes through the
 * plugin's stream plumbing and a socket write, so eight times fewer of them cost less main-thread time.
 */
const COMPRESSED_CHUNK = 128 * 1024;

/**
 * The export route's `compress` option (@fastify/compress; put it on every export route): CSV is
 * compressed at the cheapest level of each encoding — Brotli quality 1 (the plugin's default is 4)
 * or gzip level 1, about 3:1 on these rows for ~1–2 CPU s per 155 MB, on the thread pool — and
 * xlsx never (its parts are DEFLATE already).
 */
export const ExportCompression: Exclude<RouteShorthandOptions['compress'], false | undefined> = {
  customTypes: /^text\/csv(?:;|$)/,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 }, chunkSize: COMPRESSED_CHUNK },
  zlibOptions: { level: 1, chunkSize: COMPRESSED_CHUNK },
};

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/**
 * `formatTime` (YYYY-MM-DD HH:mm:ss, Shanghai) for a column of a million rows: the same text, but
 * the date of each day is formatted once (kept by day number: rows come newest first, and a column
 * like an audit time jumps between days) and the time of day by arithmetic, without a Date per cell.
 * One formatter per column.
 */
export function exportTimeFormatter(): (ms: number | null | undefined) => string {
  // 'YYYY-MM-DD ' of Shanghai day d (its midnight in UTC ms formatted)
  const dateOf = remembered(dateTextOfDay, DATES_KEPT);
  return (ms) => {
    if (ms === null || ms === undefined) return '';
    const local = ms + SHANGHAI_OFFSET;
    const d = Math.floor(local / DAY_MS);
    const date = dateOf(d);
    const s = Math.floor((local - d * DAY_MS) / 1000);
    return `${date}${TWO_DIGITS[Math.floor(s / 3600)]}:${TWO_DIGITS[Math.floor(s / 60) % 60]}:${TWO_DIGITS[s % 60]}`;
  };
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
 * UTF-8 with a BOM (Excel then opens it as UTF-8), CRLF line ends. Each batch is encoded a few rows
 * at a time (ROWS_PER_WRITE) into one buffer and written in one write, once the previous one has drained: the next batch is
 * read while the last one is sent, and never more than one batch waits in memory.
 */
async function writeCsv<R>(spec: ExportSpec<R>, out: Writable): Promise<number> {
  if (spec.copy) return writeCsvFromCopy(spec, spec.copy, out);
  const values = spec.columns.map((c) => c.value);
  const n = values.length;
  let count = 0;
  out.write(csvHeaderLine(spec.columns));
  const bytes = new Utf8Batch();
  for await (const batch of spec.batches) {
    if (out.destroyed) break;
    let chunk = '';
    for (let k = 0; k < batch.length; k++) {
      const row = batch[k];
      let line = csvCell(values[0](row));
      for (let i = 1; i < n; i++) line += `,${csvCell(values[i](row))}`;
      chunk += `${line}\r\n`;
      if (k % ROWS_PER_WRITE === ROWS_PER_WRITE - 1) {
        bytes.add(chunk);
        chunk = '';
      }
    }
    if (chunk) bytes.add(chunk);
    count += batch.length;
    await drained(out);
    if (out.destroyed) break;
    out.write(bytes.take());
  }
  await ended(out);
  return count;
}

/** Writes the whole export to `out` (ends it); resolves with the number of data rows. */
export function writeExport<R>(spec: ExportSpec<R>, format: ExportFormat, out: Writable): Promise<number> {
  if (format === 'csv') return writeCsv(spec, out);
  return spec.copy ? writeXlsxFromCopy(spec, spec.copy, out) : writeXlsx(spec, out);
}

/**
 * Sends the export as the route's reply. `build` makes the spec from the context it is given: on a
 * SQLite file that context reads through a connection of its own (Ctx.reader: a small page cache,
 * closed once the export is written or cut short). Validate the input in `build` or before: once the
 * headers are out, a failure can only cut the download short (logged), never become an envelope.
 */
export async function sendExport<R>(
  reply: FastifyReply,
  ctx: Ctx,
  build: (ctx: Ctx) => ExportSpec<R> | Promise<ExportSpec<R>>,
  format: ExportFormat | undefined,
): Promise<FastifyReply> {
  const f: ExportFormat = format ?? 'xlsx';
  const reader = ctx.reader?.();
  let spec: ExportSpec<R>;
  try {
    spec = await build(reader ? { ...ctx, db: reader.db } : ctx);
  } catch (err) {
    await reader?.close();
    throw err;
  }
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  writeExport(spec, f, out)
    .catch((err: unknown) => {
      reply.log.error({ err }, `export ${spec.title} failed`);
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    })
    .finally(() => reader?.close())
    .catch((err: unknown) => reply.log.error({ err }, `export ${spec.title}: closing its reader failed`));
  return sendFile(reply, spec.title, f, ctx.clock.now(), out);
}

/**
 * The headers that make the reply a download of `title` (named by `now`'s Shanghai date), then its
 * bytes; cut once it stands still past the stall limit.
 */
export function sendFile(
  reply: FastifyReply,
  title: string,
  format: ExportFormat,
  now: number,
  body: PassThrough,
): FastifyReply {
  cutWhenStalled(body);
  return reply
    .header('content-type', CONTENT_TYPES[format])
    .header('content-disposition', contentDisposition(exportFileName(title, format, now)))
    .header('cache-control', 'no-store')
    .send(body);
}
