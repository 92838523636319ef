/**
 * A query's rows as PostgreSQL writes them in CSV (`COPY (…) TO STDOUT WITH (FORMAT csv)`), read as raw
 * bytes on a connection of its own: what the CSV and xlsx exports read on PostgreSQL
 * (server/export/csvCopy.ts, server/export/xlsxCopy.ts).
 * No row is parsed by pg and no field becomes a JavaScript string unless the export formats it.
 *
 * COPY takes no bind parameters, so the query's values are written into its text as literals
 * (copyStatement, inlineParameters): integers as they print (a negative one in parentheses), text as an
 * escape string `E'…'` with its backslashes and quotes doubled. Anything else (fractions, arrays, dates,
 * objects) is refused, when the export is built, before any byte is sent. The connection sets
 * `standard_conforming_strings` on, so that the query's own literals (`escape '\'`) read as the scanner
 * read them.
 *
 * One statement reads every row from one snapshot; the client's pace sets PostgreSQL's (the socket is
 * paused while the consumer is behind). The COPY's messages are read off the socket here (CopyOut), not
 * by pg's parser: each row's bytes are copied once, straight into the chunk the consumer gets. The connection is closed when the rows end, when the consumer
 * stops early (`return()` of the iterator), when `signal` aborts (the download went away, even before
 * the first row) and on any error. At most COPY_CONNECTIONS run at once per thread; more wait.
 */
import pg from 'pg';
import type { DbSource } from './dialect';

/** A value as a PostgreSQL literal (see inlineParameters). */
export function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    // Only integers: a fraction would become a numeric literal where a bound value would have failed.
    if (!Number.isSafeInteger(value)) throw new RangeError(`cannot inline ${value}`);
    return value < 0 ? `(${value})` : String(value); // `-$1` must not become `--1`, a comment
  }
  if (typeof value === 'bigint') return value < 0n ? `(${value})` : value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new RangeError('cannot inline a NUL character');
    return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  }
  throw new TypeError(`cannot inline a value of type ${Object.prototype.toString.call(value)}`);
}

/** Where the quoted part that starts at `i` (a quote character `q`, doubled inside) ends. */
function quotedEnd(text: string, i: number, q: string): number {
  let j = i + 1;
  for (;;) {
    j = text.indexOf(q, j);
    if (j < 0) throw new SyntaxError(`unterminated ${q} in query text`);
    if (text[j + 1] !== q) return j + 1;
    j += 2;
  }
}

/**
 * The compiled query's text with each `$n` replaced by its value as a literal. Quoted literals and
 * identifiers are copied as they are; what this scanner cannot read as PostgreSQL would — an escape or
 * Unicode string (`E'…'`, `U&'…'`: a backslash there changes where it ends), a comment (its end depends
 * on nesting and line ends), a `$` that is not a placeholder (a dollar-quoted string) — is refused rather
 * than guessed at, as is a placeholder without a value. (Kysely writes none of them.)
 */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let end = i + 1;
    if (c === "'" || c === '"') {
      if (c === "'" && /(?:^|[^\w$])(?:[eE]|[uU]&)$/.test(text.slice(Math.max(0, i - 3), i))) {
        throw new SyntaxError('an escape or Unicode string in query text');
      }
      end = quotedEnd(text, i, c);
    } else if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '*')) {
      throw new SyntaxError('a comment in query text');
    } else if (c === '$') {
      const m = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (!m) throw new SyntaxError('a $ that is not a placeholder in query text');
      const n = Number(m[1]);
      if (n < 1 || n > parameters.length) throw new RangeError(`placeholder $${n} has no value`);
      out += pgLiteral(parameters[n - 1]);
      i += m[0].length;
      continue;
    }
    out += text.slice(i, end);
    i = end;
  }
  return out;
}

/** The COPY of a compiled SELECT, its values written in: made when the export is built (it may refuse). */
export function copyStatement(query: { sql: string; parameters: readonly unknown[] }): string {
  return `copy (${inlineParameters(query.sql, query.parameters)}) to stdout with (format csv)`;
}

/**
 * COPY connections open at once in this thread (each export worker is a thread; in the request's thread
 * when exports run there): every export opens its own, outside the pool, so the number is bounded here.
 */
export const COPY_CONNECTIONS = 2;
let open = 0;
const waiting: Array<() => void> = [];

async function slot(signal?: AbortSignal): Promise<() => void> {
  if (signal?.aborted) throw new Error('COPY aborted');
  if (open >= COPY_CONNECTIONS) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      const stop = () => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new Error('COPY aborted while waiting for a connection'));
      };
      signal?.addEventListener('abort', stop, { once: true });
      waiting.push(go);
    });
  } else open++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else open--;
  };
}

/** The chunks CopyOut hands on: about this size, whole rows each (a longer row gets one of its own). */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks waiting for the consumer before the socket is paused. */
const QUEUED_CHUNKS = 2;

/** Message types of PostgreSQL's protocol that the COPY's reader meets. */
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
/** Skipped: CopyOutResponse and what the server may send at any time (ParameterStatus, notices, notifications). */
const SKIPPED = new Set([0x48 /* H */, 0x53 /* S */, 0x4e /* N */, 0x41 /* A */]);

/**
 * `COPY … TO STDOUT` as a pg submittable that reads the socket itself while the COPY lasts (as
 * pg-copy-streams did, without its per-message buffer list and second copy): the framing of each
 * message ('d', then its length) is read in place, and a CopyData's bytes (one row each, as PostgreSQL
 * sends them) are copied into the chunk being filled, so that a chunk ends at a row's end. At CopyDone
 * or at an ErrorResponse (or any message a COPY does not send) the socket goes back to pg's parser with
 * the bytes that follow, and pg reports the error, the command's end and ReadyForQuery as for any query.
 */
export class CopyOut implements pg.Submittable {
  private connection: pg.Connection | null = null;
  private pgData: ((b: Buffer) => void) | null = null;
  private readonly onData = (b: Buffer) => this.read(b);
  /** The message being read: its type and how many of its bytes are still to come (-1: in its header). */
  private type = 0;
  private left = -1;
  /** A header cut by the end of a socket chunk: its bytes so far. */
  private readonly head = Buffer.alloc(5);
  private headUsed = 0;
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private readonly full: Buffer[] = [];
  private paused = false;
  /** CopyDone read; ReadyForQuery then ends the rows (`done`). */
  private copyDone = false;
  private done = false;
  private failed: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(readonly text: string) {}

  /** Called by pg when the query's turn comes. */
  submit(connection: pg.Connection): void {
    this.connection = connection;
    const stream = connection.stream;
    const listeners = stream.listeners('data');
    if (listeners.length !== 1) throw new Error('pg connection has an unexpected data listener');
    this.pgData = listeners[0] as (b: Buffer) => void;
    stream.removeListener('data', this.pgData);
    stream.on('data', this.onData);
    connection.query(this.text);
  }

  handleError(err: Error): void {
    this.failed ??= err;
    this.signal();
  }

  handleCommandComplete(): void {}

  /** The rows end here, not at CopyDone: pg is done with the statement, and the connection can say goodbye. */
  handleReadyForQuery(): void {
    if (!this.copyDone) this.failed ??= new Error('COPY ended without CopyDone');
    this.done = true;
    this.signal();
  }

  /** What pg hands on for messages a COPY TO never sends: a failure, not a crash in the socket's event. */
  private unexpected(): void {
    this.handleError(new Error('unexpected message during COPY'));
  }
  handleRowDescription(): void {
    this.unexpected();
  }
  handleDataRow(): void {
    this.unexpected();
  }
  handlePortalSuspended(): void {
    this.unexpected();
  }
  handleEmptyQuery(): void {
    this.unexpected();
  }
  handleCopyInResponse(): void {
    this.unexpected();
  }
  handleCopyData(): void {
    this.unexpected();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** One chunk off the socket: the messages' framing read, CopyData's bytes copied into chunks. */
  private read(b: Buffer): void {
    const len = b.length;
    let p = 0;
    while (p < len) {
      if (this.left < 0) {
        if (this.headUsed === 0) {
          const type = b[p];
          // Back to pg at a message a COPY's reader does not read (an error's: pg parses and reports it).
          if (type !== COPY_DATA && type !== COPY_DONE && !SKIPPED.has(type)) return this.detach(b.subarray(p));
          if (len - p >= 5) {
            this.begin(type, b.readUInt32BE(p + 1) - 4);
            p += 5;
            if (this.type === COPY_DONE) return this.finish(b.subarray(p));
            continue;
          }
        }
        while (this.headUsed < 5 && p < len) this.head[this.headUsed++] = b[p++];
        if (this.headUsed < 5) return;
        this.headUsed = 0;
        this.begin(this.head[0], this.head.readUInt32BE(1) - 4);
        if (this.type === COPY_DONE) return this.finish(b.subarray(p));
        continue;
      }
      const n = Math.min(this.left, len - p);
      if (this.type === COPY_DATA) {
        b.copy(this.chunk, this.used, p, p + n);
        this.used += n;
      }
      p += n;
      this.left -= n;
      if (this.left === 0) this.left = -1;
    }
  }

  /** A message's header read: a CopyData makes room for its row in the chunk being filled. */
  private begin(type: number, length: number): void {
    this.type = type;
    this.left = length > 0 ? length : -1;
    if (type !== COPY_DATA || this.used + length <= this.chunk.length) return;
    if (this.used > 0) this.hand();
    if (length > this.chunk.length) this.chunk = Buffer.allocUnsafe(length);
  }

  /** The chunk being filled goes to the consumer; the socket waits while too many do. */
  private hand(): void {
    this.full.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    if (this.full.length >= QUEUED_CHUNKS && !this.paused) {
      this.paused = true;
      this.connection?.stream.pause();
    }
    this.signal();
  }

  private finish(rest: Buffer): void {
    this.copyDone = true;
    this.detach(rest);
  }

  /** The rows so far to the consumer, and the socket back to pg's parser, which reads `rest` first. */
  private detach(rest: Buffer): void {
    if (this.used > 0) this.hand();
    const stream = this.connection!.stream;
    stream.removeListener('data', this.onData);
    stream.on('data', this.pgData!);
    if (this.paused) {
      this.paused = false;
      stream.resume();
    }
    if (rest.length > 0) this.pgData!(rest);
    this.signal();
  }

  /** The rows' chunks, in order; throws what pg reported (an error of the query, or the connection lost). */
  async *chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const next = this.full.shift();
      if (next !== undefined) {
        if (this.paused && this.full.length < QUEUED_CHUNKS) {
          this.paused = false;
          this.connection?.stream.resume();
        }
        yield next;
        continue;
      }
      if (this.failed) throw this.failed;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/**
 * The rows of `statement` (copyStatement) as PostgreSQL's CSV: no header, fields separated by commas,
 * a field quoted only when it holds a comma, a quote, CR or LF (quotes doubled) or is an empty string
 * (`""`, where NULL is nothing), each row ended by LF. Each chunk holds whole rows, about CHUNK_BYTES
 * of them (PostgreSQL sends a row per CopyData message; a reader still copes with a row cut in two).
 */
export async function* copyCsv(source: DbSource, statement: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const release = await slot(signal);
  let client: pg.Client | undefined;
  // The socket of the moment (TLS replaces the one the client started with).
  const destroy = () =>
    (client as unknown as { connection: { stream: { destroy(): void } } } | undefined)?.connection.stream.destroy();
  let finished = false;
  try {
    client = new pg.Client({
      connectionString: source.url,
      keepAlive: true,
      fallback_application_name: source.pgSchema ?? `lz-admin-console-${process.pid}`,
      ...(source.pgSchema ? { options: `-c search_path=${source.pgSchema}` } : {}),
    });
    let lost: Error | null = null;
    client.on('error', (err) => (lost ??= err)); // reported through the rows (an unheard 'error' ends the process)
    signal?.addEventListener('abort', destroy, { once: true });
    if (signal?.aborted) throw new Error('COPY aborted');
    await client.connect();
    // The query's own literals read as inlineParameters read them; no statement_timeout of the role or
    // database cutting a long download short (one statement lasts the whole download).
    await client.query(
      "select set_config('standard_conforming_strings', 'on', false), set_config('statement_timeout', '0', false)",
    );
    // PostgreSQL 14+ on a system that can tell (Linux) looks at the socket every second while the query
    // runs, so a download that goes away before the first row (a long sort) stops it too. Elsewhere the
    // setting is refused, and the query only stops at its first row.
    await client.query('set client_connection_check_interval = 1000').catch(() => undefined);
    yield* client.query(new CopyOut(statement)).chunks();
    if (lost) throw lost;
    finished = true;
  } finally {
    signal?.removeEventListener('abort', destroy);
    // A COPY cut short (the reader stopped, or it failed) leaves the connection mid-protocol, never to be
    // used again: its socket is closed at once, and PostgreSQL ends the statement (tested). A finished one
    // says goodbye without holding the download's end for it; its slot is free once it has.
    if (finished && client) {
      void client
        .end()
        .catch(() => undefined)
        .finally(release);
    } else {
      destroy();
      release();
    }
  }
}
