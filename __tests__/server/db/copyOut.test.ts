/**
 * CopyOut (server/db/copyOut.ts) reads a COPY's messages off pg's socket itself: its framing must hold
 * wherever the socket's chunks end (inside a header, a row, between messages), its chunks must end at
 * rows' ends, and what follows the COPY (or an error) must reach pg's parser byte for byte.
 * The real COPY is tested on PostgreSQL in ../export/csvCopy.test.ts.
 */
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { CHUNK_BYTES, CopyOut } from '../../../server/db/copyOut';

/** A protocol message: its type, its length (itself included) and its body. */
function message(type: string, body: Buffer | string = Buffer.alloc(0)): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32BE(b.length + 4, 1);
  return Buffer.concat([head, b]);
}

/**
 * pg's connection as CopyOut sees it: a socket that holds its bytes while paused (as a paused socket
 * does), with pg's parser listening — here a small one that reads whole messages and calls the active
 * query as pg's client does (an ErrorResponse: handleError, after which pg has no active query; then
 * ReadyForQuery: handleReadyForQuery) — and what was sent.
 */
function connection(copy: CopyOut) {
  const held: Buffer[] = [];
  let paused = false;
  const stream = Object.assign(new EventEmitter(), {
    pause: jest.fn(() => {
      paused = true;
    }),
    resume: jest.fn(() => {
      paused = false;
      setImmediate(() => {
        while (!paused && held.length > 0) stream.emit('data', held.shift());
      });
    }),
    /** Bytes off the network: held while paused. */
    push(b: Buffer) {
      if (paused || held.length > 0) held.push(b);
      else stream.emit('data', b);
    },
  });
  const toPg: Buffer[] = [];
  let failed = false;
  let read = 0; // bytes of whole messages pg has read
  const pgParser = (b: Buffer) => {
    toPg.push(Buffer.from(b));
    const all = Buffer.concat(toPg);
    while (read + 5 <= all.length) {
      const end = read + 1 + all.readUInt32BE(read + 1);
      if (end > all.length) break;
      if (all[read] === 0x45) {
        failed = true;
        copy.handleError(
          new Error(
            all
              .toString('utf8', read + 5, end)
              .split('\0')[1]
              .slice(1),
          ),
        );
      } else if (all[read] === 0x5a && !failed) copy.handleReadyForQuery();
      read = end;
    }
  };
  stream.on('data', pgParser);
  const sent: string[] = [];
  const con = { stream, query: (text: string) => sent.push(text) };
  copy.submit(con as unknown as pg.Connection);
  return { stream, pgParser, toPg, sent };
}

async function all(copy: CopyOut): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const c of copy.chunks()) out.push(c);
  return out;
}

const ROWS = ['1,"a,b",x\n', '22,,""\n', '333,中文,"q""q"\n', `4,${'y'.repeat(300)}\n`].map((r) => Buffer.from(r));
const copyResponse = message('H', Buffer.from([0, 0, 3, 0, 0, 0, 0, 0, 0]));
const after = Buffer.concat([message('C', 'COPY 4\0'), message('Z', 'I')]);

function wire(rows: Buffer[]): Buffer {
  return Buffer.concat([
    copyResponse,
    message('S', 'TimeZone\0UTC\0'),
    ...rows.flatMap((r, i) => (i === 1 ? [message('N', 'notice\0'), message('d', r)] : [message('d', r)])),
    message('c'),
    after,
  ]);
}

/** Whether each chunk ends where a row ends. */
function atRowEnds(chunks: Buffer[], rows: Buffer[]): boolean {
  const ends = new Set<number>();
  let at = 0;
  for (const r of rows) ends.add((at += r.length));
  at = 0;
  return chunks.every((c) => ends.has((at += c.length)));
}

/** Feeds `bytes` to the socket cut at `at` (offsets). */
function feed(stream: { push(b: Buffer): void }, bytes: Buffer, at: number[] = []): void {
  const bounds = [0, ...at, bytes.length];
  for (let i = 1; i < bounds.length; i++) stream.push(bytes.subarray(bounds[i - 1], bounds[i]));
}

describe('CopyOut', () => {
  it('reads the rows whatever the socket cuts, hands pg what follows the COPY, and ends at ReadyForQuery', async () => {
    const bytes = wire(ROWS);
    const cuts: number[][] = [[], ...Array.from({ length: bytes.length - 1 }, (_, i) => [i + 1])];
    cuts.push(Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)); // a byte at a time
    for (const at of cuts) {
      const copy = new CopyOut('copy (select 1) to stdout');
      const { stream, pgParser, toPg, sent } = connection(copy);
      expect(sent).toEqual(['copy (select 1) to stdout']);
      expect(stream.listeners('data')).not.toContain(pgParser);
      feed(stream, bytes, at);
      const chunks = await all(copy);
      expect(Buffer.concat(chunks).equals(Buffer.concat(ROWS))).toBe(true);
      expect(atRowEnds(chunks, ROWS)).toBe(true);
      expect(Buffer.concat(toPg).equals(after)).toBe(true);
      expect(stream.listeners('data')).toEqual([pgParser]);
    }
  });

  it('does not end at CopyDone before pg has read ReadyForQuery', async () => {
    const bytes = wire(ROWS);
    const copy = new CopyOut('copy');
    const { stream } = connection(copy);
    feed(stream, bytes.subarray(0, bytes.length - after.length));
    let ended = false;
    const reading = all(copy).then((c) => ((ended = true), c));
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(false);
    feed(stream, after);
    expect(Buffer.concat(await reading).equals(Buffer.concat(ROWS))).toBe(true);
  });

  it('fills chunks of about CHUNK_BYTES with whole rows, a longer row in one of its own, and holds the socket while two wait', async () => {
    const rows = [
      ...Array.from({ length: 3000 }, (_, i) => Buffer.from(`${i},${'z'.repeat(200)}\n`)),
      Buffer.from(`long,${'L'.repeat(CHUNK_BYTES + 10)}\n`),
      Buffer.from('last\n'),
    ];
    const bytes = wire(rows);
    const copy = new CopyOut('copy');
    const { stream, toPg } = connection(copy);
    // Everything arrives at once; the socket holds what comes after the second full chunk, CopyDone
    // included, so the rows end only if reading them resumes the socket.
    feed(
      stream,
      bytes,
      Array.from({ length: Math.floor((bytes.length - 1) / 8192) }, (_, i) => (i + 1) * 8192),
    );
    expect(stream.pause).toHaveBeenCalledTimes(1);
    expect(toPg).toEqual([]);
    const chunks = await all(copy);
    expect(stream.resume).toHaveBeenCalled();
    expect(Buffer.concat(chunks).equals(Buffer.concat(rows))).toBe(true);
    expect(atRowEnds(chunks, rows)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.some((c) => c.length > CHUNK_BYTES)).toBe(true);
    expect(chunks.slice(0, -3).every((c) => c.length > CHUNK_BYTES - 300 && c.length <= CHUNK_BYTES)).toBe(true);
    expect(Buffer.concat(toPg).equals(after)).toBe(true);
  });

  it('hands an error back to pg from its first byte, gives the rows before it, then throws what pg reports', async () => {
    const failure = Buffer.concat([message('E', 'SERROR\0Mdivision by zero\0\0'), message('Z', 'I')]);
    const bytes = Buffer.concat([copyResponse, message('d', ROWS[0]), message('d', ROWS[1]), failure]);
    const at = bytes.length - failure.length;
    for (const cut of [[], [at], [at + 1], [at + 3, at + 9]]) {
      const copy = new CopyOut('copy');
      const { stream, pgParser, toPg } = connection(copy);
      feed(stream, bytes, cut);
      expect(Buffer.concat(toPg).equals(failure)).toBe(true);
      expect(stream.listeners('data')).toEqual([pgParser]);
      const got: Buffer[] = [];
      await expect(
        (async () => {
          for await (const c of copy.chunks()) got.push(c);
        })(),
      ).rejects.toThrow('division by zero');
      expect(Buffer.concat(got).toString()).toBe(`${ROWS[0]}${ROWS[1]}`);
    }
  });

  it('fails, rather than waiting, when the COPY ends without CopyDone or pg meets a message a COPY never sends', async () => {
    const copy = new CopyOut('copy');
    const { stream, toPg } = connection(copy);
    feed(stream, Buffer.concat([copyResponse, message('d', ROWS[0]), after]));
    expect(Buffer.concat(toPg).equals(after)).toBe(true);
    await expect(all(copy)).rejects.toThrow('COPY ended without CopyDone');

    for (const handle of ['handleRowDescription', 'handleDataRow', 'handleEmptyQuery', 'handleCopyData'] as const) {
      const other = new CopyOut('copy');
      connection(other);
      other[handle]();
      await expect(all(other)).rejects.toThrow('unexpected message during COPY');
    }
  });

  it('throws when the connection is lost mid-way (pg reports it), waiting or not', async () => {
    for (const waiting of [true, false]) {
      const copy = new CopyOut('copy');
      const { stream } = connection(copy);
      feed(stream, Buffer.concat([copyResponse, message('d', ROWS[0])]).subarray(0, 12));
      const lost = () => copy.handleError(new Error('Connection terminated unexpectedly'));
      if (!waiting) lost();
      const reading = expect(all(copy)).rejects.toThrow('Connection terminated unexpectedly');
      await new Promise((r) => setImmediate(r));
      if (waiting) lost();
      await reading;
    }
  });
});
