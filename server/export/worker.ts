/**
 * An export worker: one export, in a thread of its own (started by ./send.ts). It opens its own
 * connection to the database (Db.source), builds the export by name from its input (./exporters), writes
 * the file with the same writers as the request's thread would, and posts the bytes to the thread that
 * answers the request, which sends them. Reading and formatting a million rows then takes neither the
 * event loop that serves the API (whose other requests no longer wait behind each batch) nor its heap,
 * and the file is made on a second core while the first sends it (docs/performance.md, order export).
 *
 * Messages: the worker posts `refused` (an AppError from the input) or `failed` before any byte, or
 * `start` (with the title, for the file name) with its first bytes, `data` chunks, then `end` or
 * `failed`. The parent acknowledges each chunk once its response has taken it (`ack`): at most IN_FLIGHT
 * chunks wait in the parent. `stop` (the client went away) ends the export where it is.
 */
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';
import { openReader, type Db, type DbSource } from '../db/dialect';
import { AppError } from '../errors';
import { ExportCompression, writeExport, type ExportFormat } from './export';
import { buildExport, type ExportName } from './exporters';
import { gatherer } from './gather';

export interface ExportJob {
  name: ExportName;
  /** The route's validated query. */
  input: unknown;
  format: ExportFormat;
  source: DbSource;
  /**
   * The content encoding the response was negotiated to (a CSV: br or gzip, as ExportCompression
   * would); the worker compresses, so a third of the bytes cross to the parent and the parent's thread
   * pool and heap stay out of it.
   */
  encoding?: ExportEncoding;
}

export type ExportEncoding = 'br' | 'gzip';

export type FromWorker =
  | { type: 'refused'; code: number; message: string }
  | { type: 'start'; title: string }
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'end'; rows: number }
  | { type: 'failed'; message: string; stack?: string };

export type ToWorker = { type: 'ack' } | { type: 'stop' };

const { brotliOptions, zlibOptions: gzipOptions } = ExportCompression;

/** Chunks posted and not yet taken by the parent's response before the writer waits. */
export const IN_FLIGHT = 2;

async function run(job: ExportJob): Promise<void> {
  const port = parentPort!;
  const post = (m: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);
  let db: Db | undefined;
  let inFlight = 0;
  let waiting: (() => void) | null = null;
  let sink: Writable | null = null;
  let stopped = false;
  const wake = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  port.on('message', (m: ToWorker) => {
    if (m.type === 'ack') {
      inFlight--;
      wake();
      return;
    }
    stopped = true;
    waiting = null; // a destroyed sink takes no more callbacks: the writers see it destroyed and stop
    sink?.destroy();
  });
  try {
    db = openReader(job.source);
    let spec;
    try {
      spec = await buildExport({ db: db.db, kind: db.kind, dbSource: job.source }, job.name, job.input as never);
    } catch (err) {
      if (err instanceof AppError) return post({ type: 'refused', code: err.code, message: err.message });
      throw err;
    }
    // `start` goes with the first bytes, not before: until then a failure (the first read) is still an
    // envelope, not a download with an error in it.
    let started = false;
    const { title } = spec;
    const start = () => {
      if (!started) post({ type: 'start', title });
      started = true;
    };
    // Gathered into fewer messages (./gather.ts), each in a buffer the message owns and moves.
    const data = gatherer((chunk) => {
      post({ type: 'data', chunk }, [chunk.buffer as ArrayBuffer]);
      inFlight++;
    });
    sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        start();
        data.add(chunk);
        if (inFlight < IN_FLIGHT || stopped) done();
        else waiting = () => done();
      },
      final(done) {
        data.flush();
        done();
      },
    });
    if (stopped) sink.destroy();
    let into: Writable = sink;
    if (job.encoding) {
      const compressor =
        job.encoding === 'br' ? zlib.createBrotliCompress(brotliOptions) : zlib.createGzip(gzipOptions);
      compressor.pipe(sink);
      sink.on('close', () => compressor.destroy());
      into = compressor;
    }
    const rows = await writeExport(spec, job.format, into);
    if (into !== sink) await finished(sink).catch(() => undefined); // the compressor's last bytes are out
    if (!stopped) {
      start();
      post({ type: 'end', rows }); // (a finished sink is destroyed too: autoDestroy)
    }
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    post({ type: 'failed', message: e.message, stack: e.stack });
  } finally {
    await db?.close();
    // Not close(): messages posted just before it could be dropped. Unreferenced, the port no longer
    // keeps the thread alive, and it ends once the messages are out.
    port.unref();
  }
}

if (parentPort) void run(workerData as ExportJob);
