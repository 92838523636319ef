/**
 * How a route answers with an export: `sendExportOf(reply, ctx, 'order', query, query.format)`.
 *
 * Where another thread can open the database (a SQLite file, PostgreSQL: Ctx.dbSource) and the server
 * allows it (EXPORT_WORKERS, on by default), the export runs in a worker thread (./worker.ts) and this
 * thread only sends the bytes it posts; otherwise (SQLite in memory, tests) it runs here (sendExport).
 * Either way an input the export refuses answers its envelope before any byte is sent, and the same
 * writers make the same file.
 */
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { FastifyReply } from 'fastify';
import type { Ctx } from '../context';
import { Code, Messages } from '../../domain/codes';
import { AppError } from '../errors';
import { negotiate as negotiateHeader } from '@fastify/accept-negotiator';
import { ExportCompression, sendExport, sendFile, type ExportFormat } from './export';
import { buildExport, type ExportInput, type ExportName } from './exporters';
import type { ExportEncoding, ExportJob, FromWorker, ToWorker } from './worker';

/**
 * The worker's file: worker.js beside this file in the compiled server; from the TypeScript source
 * (tests, `npm run dev`) worker.ts, compiled as it loads by Babel, as its parent is.
 */
const FROM_SOURCE = __filename.endsWith('.ts');
const WORKER_FILE = path.join(__dirname, FROM_SOURCE ? 'worker.ts' : 'worker.js');
const WORKER_EXEC_ARGV = FROM_SOURCE
  ? [...requiresOf(process.execArgv), '--require', path.join(__dirname, 'register-source.js')]
  : undefined;

/**
 * The `--require` modules of the process's flags, and nothing else: a worker refuses per-process flags
 * (--cpu-prof-dir, --max-old-space-size, --expose-gc: ERR_WORKER_INVALID_EXEC_ARGV), which a source run
 * under a profiler or a test runner may carry.
 */
function requiresOf(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === '-r' || a === '--require') && i + 1 < argv.length) out.push(a, argv[++i]);
    else if (a.startsWith('--require=')) out.push(a);
  }
  return out;
}

/** The worker's young generation (see startWorker). */
const WORKER_YOUNG_MB = 32;

let running = 0;
/** Exports waiting for a worker, oldest first. */
const queue: Array<() => void> = [];

/**
 * Export workers at once per server process (the machines here have 2 cores; each worker holds ~40 MB
 * and a core while it runs). Past it an export waits for one to end before it starts, so a burst of
 * clicks on 导出 cannot multiply the server's memory.
 */
export const EXPORT_WORKERS_MAX = 2;

/** Export workers started and not yet ended (what a test waits to see back at 0). */
export const exportWorkersRunning = () => running;

/**
 * How long an export waits for a worker before it is refused (429, 导出任务较多): two downloads of a
 * million rows on slow links hold both slots for minutes, and a request that waits without a byte past a
 * proxy's read timeout would end in its 504 anyway.
 */
let queueWaitMs = 30_000;

/** For tests: the queue's wait limit (see queueWaitMs). */
export function setExportQueueWait(ms: number): void {
  queueWaitMs = ms;
}

/** Resolves when a worker may start (running counts it from then on); refuses after queueWaitMs. */
function workerSlot(): Promise<void> {
  if (running < EXPORT_WORKERS_MAX) {
    running++;
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const take = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      queue.splice(queue.indexOf(take), 1);
      reject(new AppError(Code.tooMany, Messages.exportsBusy));
    }, queueWaitMs);
    queue.push(take);
  });
}

/** A worker ended: its slot goes to the oldest waiting export, if any. */
function releaseSlot(): void {
  const next = queue.shift();
  if (next) next();
  else running--;
}

/** What sendExportOf sets for the file, taken back when it fails before they are sent. */
const FILE_HEADERS = ['content-encoding', 'content-disposition', 'vary', 'cache-control'];

/** How long a worker whose client went away may take to stop by itself before it is terminated. */
const STOP_GRACE_MS = 5000;

export async function sendExportOf<N extends ExportName>(
  reply: FastifyReply,
  ctx: Ctx,
  name: N,
  input: ExportInput<N>,
  format: ExportFormat | undefined,
): Promise<FastifyReply> {
  if (!ctx.config.exportWorkers || !ctx.dbSource)
    return sendExport(reply, ctx, (c) => buildExport(c, name, input), format);
  const f: ExportFormat = format ?? 'xlsx';
  const { headers } = reply.request;
  const encoding =
    f === 'csv' && headers['x-no-compression'] === undefined ? negotiate(headers['accept-encoding']) : undefined;
  await workerSlot();
  if (reply.raw.destroyed || reply.request.raw.socket?.destroyed === true) {
    releaseSlot(); // the client left while the export waited its turn: nobody to make it for
    throw new Error('the client went away before the export started');
  }
  const { title, out } = await startWorker({ name, input, format: f, source: ctx.dbSource, encoding }, reply);
  // A compressed body says so: @fastify/compress leaves a reply with a Content-Encoding alone.
  if (encoding) {
    const vary = reply.getHeader('vary');
    reply
      .header('content-encoding', encoding)
      .header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  }
  return sendFile(reply, title, f, ctx.clock.now(), out);
}

/** The encoding ExportCompression's route would pick for this Accept-Encoding (none: identity). */
function negotiate(accept: string | string[] | undefined): ExportEncoding | undefined {
  if (typeof accept !== 'string') return undefined;
  const header = accept.toLowerCase().replace(/\*|x-gzip/g, 'gzip'); // as @fastify/compress reads it
  const picked = negotiateHeader(header, ExportCompression.encodings ?? []) as string | null;
  return picked === 'br' || picked === 'gzip' ? picked : undefined;
}

/**
 * Starts the export's worker; resolves with its first bytes (the title, and the stream its bytes come out
 * of), rejects with the AppError it refused the input with, or with what broke before any byte.
 */
function startWorker(job: ExportJob, reply: FastifyReply): Promise<{ title: string; out: PassThrough }> {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_FILE, {
      workerData: job,
      execArgv: WORKER_EXEC_ARGV,
      // The young generation bounded at 32 MB (V8 grows it to ~34 and more): a batch of 1,000 rows dies
      // young in it all the same. 16 MB saved ~10 MB of peak RSS on a million-row export but cost 5–10 %
      // of the xlsx speed in more scavenges (docs/performance.md, order export).
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
  } catch (err) {
    releaseSlot();
    return Promise.reject(err);
  }
  worker.once('exit', releaseSlot);
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const send = (m: ToWorker) => worker.postMessage(m);
  let title = job.name as string;
  let started = false;
  let done = false;
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      if (!started) return reject(err);
      reply.log.error({ err }, `export ${title} failed`);
      // Headers not out yet: the error handler's envelope must not go out as a compressed attachment.
      if (!reply.raw.headersSent) for (const h of FILE_HEADERS) reply.removeHeader(h);
      out.destroy(err);
    };
    worker.on('message', (m: FromWorker) => {
      switch (m.type) {
        case 'refused':
          done = true;
          return reject(new AppError(m.code, m.message));
        case 'start':
          started = true;
          title = m.title;
          return resolve({ title, out });
        case 'data': {
          if (out.destroyed) return;
          const chunk = Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength);
          if (out.write(chunk)) send({ type: 'ack' });
          else out.once('drain', () => send({ type: 'ack' }));
          return;
        }
        case 'end':
          done = true;
          out.end();
          return;
        case 'failed': {
          const err = new Error(m.message);
          if (m.stack) err.stack = m.stack;
          return fail(err);
        }
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`export worker exited (code ${code}) before the export ended`)));
    // The client went away (or the server closes): the worker stops where it is, or is stopped.
    out.on('close', () => {
      if (done) return;
      done = true;
      send({ type: 'stop' });
      setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
    });
  });
}
