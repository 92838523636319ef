/**
 * CopyOut (server/db/pgCopy.ts) reads a COPY's messages off pg's socket itself: its framing must hold
 * wherever the socket's chunks end (inside a header, a row, between messages), its chunks must end at
 * rows' ends, and what follows the COPY (or an error) must reach pg's parser byte for byte.
 * The real COPY is tested on PostgreSQL in ../export/csvCopy.test.ts.
 */
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { CHUNK_BYTES, CopyOut } from '../../../server/db/pgCopy';

/** A protocol message: its type, its length (itself included) and its body. */
function message(type: string, body: Buffer | string = Buffer.alloc(0)): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32BE(b.length + 4, 1);
  return Buffer.concat([head, b]);
}

/** pg's connection as CopyOut sees it: a socket with pg's parser listening, and what was sent. */
function connection() {
  const stream = Object.assign(new EventEmitter(), { pause: jest.fn(), resume: jest.fn() });
  const toPg: Buffer[] = [];
  const pgParser = (b: Buffer) => toPg.push(Buffer.from(b));
  stream.on('data', pgParser);
  const sent: string[] = [];
  const con = { stream, query: (text: string) => sent.push(text) };
  return { con: con as unknown as pg.Connection, stream, pgParser, toPg, sent };
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

describe('CopyOut', () => {
  it('reads the rows whatever the socket cuts, and hands pg what follows the COPY', async () => {
    const bytes = wire(ROWS);
    const cuts: number[][] = [[], ...Array.from({ length: bytes.length - 1 }, (_, i) => [i + 1])];
    cuts.push(Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)); // a byte at a time
    for (const at of cuts) {
      const { con, stream, pgParser, toPg, sent } = connection();
      const copy = new CopyOut('copy (select 1) to stdout');
      copy.submit(con);
      expect(sent).toEqual(['copy (select 1) to stdout']);
      expect(stream.listeners('data')).not.toContain(pgParser);
      const bounds = [0, ...at, bytes.length];
      for (let i = 1; i < bounds.length; i++) stream.emit('data', bytes.subarray(bounds[i - 1], bounds[i]));
      const chunks = await all(copy);
      expect(Buffer.concat(chunks).equals(Buffer.concat(ROWS))).toBe(true);
      expect(atRowEnds(chunks, ROWS)).toBe(true);
      expect(Buffer.concat(toPg).equals(after)).toBe(true);
      expect(stream.listeners('data')).toEqual([pgParser]);
    }
  });

  it('fills chunks of about CHUNK_BYTES with whole rows, a longer row in one of its own, and pauses the socket while two wait', async () => {
    const rows = [
      ...Array.from({ length: 3000 }, (_, i) => Buffer.from(`${i},${'z'.repeat(200)}\n`)),
      Buffer.from(`long,${'L'.repeat(CHUNK_BYTES + 10)}\n`),
      Buffer.from('last\n'),
    ];
    const bytes = wire(rows);
    const { con, stream, toPg } = connection();
    const copy = new CopyOut('copy');
    copy.submit(con);
    for (let p = 0; p < bytes.length; p += 8192) stream.emit('data', bytes.subarray(p, p + 8192));
    expect(stream.pause).toHaveBeenCalled();
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
    for (const cut of [0, bytes.length - failure.length + 1, bytes.length - failure.length]) {
      const { con, stream, pgParser, toPg } = connection();
      const copy = new CopyOut('copy');
      copy.submit(con);
      if (cut > 0) stream.emit('data', bytes.subarray(0, cut));
      // pg's parser, once it is back, reads the rest itself.
      for (const l of stream.listeners('data') as Array<(b: Buffer) => void>) l(bytes.subarray(cut));
      expect(Buffer.concat(toPg).equals(failure)).toBe(true);
      expect(stream.listeners('data')).toEqual([pgParser]);
      copy.handleError(new Error('division by zero'));
      const got: Buffer[] = [];
      await expect(
        (async () => {
          for await (const c of copy.chunks()) got.push(c);
        })(),
      ).rejects.toThrow('division by zero');
      expect(Buffer.concat(got).toString()).toBe(`${ROWS[0]}${ROWS[1]}`);
    }
  });

  it('throws when the connection is lost mid-way (pg reports it), waiting or not', async () => {
    const { con, stream } = connection();
    const copy = new CopyOut('copy');
    copy.submit(con);
    stream.emit('data', Buffer.concat([copyResponse, message('d', ROWS[0])]).subarray(0, 12));
    const reading = all(copy);
    await new Promise((r) => setImmediate(r));
    copy.handleError(new Error('Connection terminated unexpectedly'));
    await expect(reading).rejects.toThrow('Connection terminated unexpectedly');
  });
});
