/**
 * `COPY … TO STDOUT` read off pg's socket (server/db/pgCopy.ts copyCsv runs it): PostgreSQL's COPY-out
 * framing read in place, each row's bytes copied once into chunks of whole rows
 * (docs/decisions.md, "The COPY read off the socket by the project's own reader").
 */
import type pg from 'pg';

/** The chunks CopyOut hands on: about this size, whole rows each (a longer row gets one of its own). */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks waiting for the consumer before the socket is paused. */
const QUEUED_CHUNKS = 2;

/** Message types of PostgreSQL's protocol that the COPY's reader meets. */
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
/**
 * The messages read here: CopyData, CopyDone, and those skipped — CopyOutResponse and what the server
 * may send at any time (ParameterStatus, notices, notifications). Any other goes back to pg's parser.
 */
const READ = new Set([COPY_DATA, COPY_DONE, 0x48 /* H */, 0x53 /* S */, 0x4e /* N */, 0x41 /* A */]);

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
  private readonly unexpected = () => this.handleError(new Error('unexpected message during COPY'));
  readonly handleRowDescription = this.unexpected;
  readonly handleDataRow = this.unexpected;
  readonly handlePortalSuspended = this.unexpected;
  readonly handleEmptyQuery = this.unexpected;
  readonly handleCopyInResponse = this.unexpected;
  readonly handleCopyData = this.unexpected;

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
        // Back to pg at a message a COPY's reader does not read (an error's: pg parses and reports it).
        if (this.headUsed === 0 && b[p] !== COPY_DATA && !READ.has(b[p])) return this.detach(b.subarray(p));
        if (this.headUsed === 0 && len - p >= 5) {
          this.begin(b[p], b.readUInt32BE(p + 1) - 4);
          p += 5;
        } else {
          // A header cut by the socket's chunk: gathered, read once whole.
          while (this.headUsed < 5 && p < len) this.head[this.headUsed++] = b[p++];
          if (this.headUsed < 5) return;
          this.headUsed = 0;
          this.begin(this.head[0], this.head.readUInt32BE(1) - 4);
        }
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
