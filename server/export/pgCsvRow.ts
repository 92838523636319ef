/**
 * Reading PostgreSQL's CSV (COPY … (FORMAT csv)) in place: where each field of a row lies in its buffer,
 * and a field as text or as an integer when a writer (./csvCopy.ts, ./xlsxCopy.ts) needs its value.
 */
import type { Writable } from 'node:stream';
import type { CopyFieldKind, CopyRows } from './common';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;

/** A field PostgreSQL quoted, and whether a quote inside it was doubled. */
export const QUOTED = 1;
export const ESCAPED = 2;

/** Where each field of the row being read lies in its buffer. */
export interface Fields {
  start: Int32Array;
  end: Int32Array;
  flags: Uint8Array;
}

const COMMAS = 0x2c2c2c2c;
const LFS = 0x0a0a0a0a;
const ONES = 0x01010101;
const HIGHS = 0x80808080 | 0;

/** A DataView of the buffer being split, made once per buffer (rows come a chunk at a time). */
let viewed: Buffer | null = null;
let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
function viewOf(buf: Buffer): DataView<ArrayBufferLike> {
  if (buf !== viewed) {
    viewed = buf;
    view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  }
  return view;
}

/**
 * Splits the row at `pos` of `buf`: its end (after the LF), or -1 when the row goes on in the next
 * chunk. Throws on a row that is not `n` fields of PostgreSQL's CSV.
 */
export function splitRow(buf: Buffer, pos: number, len: number, n: number, f: Fields): number {
  let p = pos;
  for (let i = 0; i < n; i++) {
    if (p >= len) return -1;
    if (buf[p] === QUOTE) {
      let q = p + 1;
      let flags = QUOTED;
      for (;;) {
        q = buf.indexOf(QUOTE, q);
        // The quote's next byte tells a doubled quote from the closing one.
        if (q < 0 || q + 1 >= len) return -1;
        if (buf[q + 1] !== QUOTE) break;
        flags = QUOTED | ESCAPED;
        q += 2;
      }
      f.start[i] = p + 1;
      f.end[i] = q;
      f.flags[i] = flags;
      p = q + 1;
    } else {
      let q = p;
      // Four bytes at a time while none of them is a comma or LF (a word's bytes XOR the stop byte
      // has a zero byte exactly when one is: the classic test below is exact), then byte by byte.
      const view = viewOf(buf);
      while (q + 4 <= len) {
        const v = view.getInt32(q, true);
        const c = v ^ COMMAS;
        const l = v ^ LFS;
        if ((((c - ONES) & ~c) | ((l - ONES) & ~l)) & HIGHS) break;
        q += 4;
      }
      while (q < len) {
        const b = buf[q];
        if (b === COMMA || b === LF) break;
        q++;
      }
      if (q >= len) return -1;
      f.start[i] = p;
      f.end[i] = q;
      f.flags[i] = 0;
      p = q;
    }
    if (buf[p] !== (i < n - 1 ? COMMA : LF)) throw new Error(`COPY row is not ${n} fields of CSV`);
    p++;
  }
  return p;
}

/** A field's text (null for NULL: nothing between the commas, unquoted). */
export function textOf(buf: Buffer, f: Fields, i: number): string | null {
  const s = f.start[i];
  const e = f.end[i];
  const flags = f.flags[i];
  if (flags === 0) return s === e ? null : buf.toString('utf8', s, e);
  const text = buf.toString('utf8', s, e);
  return flags & ESCAPED ? text.replaceAll('""', '"') : text;
}

/** A field as an integer, exactly as the int8 parser of server/db/dialect.ts gives it (null for NULL). */
export function intOf(buf: Buffer, f: Fields, i: number): number | null {
  let p = f.start[i];
  const e = f.end[i];
  if (f.flags[i] !== 0 || p === e) {
    if (f.flags[i] === 0) return null;
    throw new Error('COPY gave a quoted integer');
  }
  const negative = buf[p] === 0x2d;
  if (negative) p++;
  if (p === e) throw new Error('COPY gave a bad integer');
  let n = 0;
  for (; p < e; p++) {
    const d = buf[p] - 0x30;
    if (d < 0 || d > 9) throw new Error('COPY gave a bad integer');
    n = n * 10 + d;
  }
  if (!Number.isSafeInteger(n)) throw new RangeError('int8 value does not fit a number; select it as text');
  return negative ? -n : n;
}

/** The indexes of the fields of one kind. */
const fieldsOf = (kinds: readonly CopyFieldKind[], kind: CopyFieldKind) =>
  kinds.flatMap((k, i) => (k === kind ? [i] : []));

/**
 * What fills `row` from the row in `buf`: its `int` and `text` fields decoded (the array the columns'
 * `value`s read; `bytes` fields stay as they were).
 */
export function rowDecoder(kinds: readonly CopyFieldKind[]): (buf: Buffer, fields: Fields, row: unknown[]) => void {
  const ints = fieldsOf(kinds, 'int');
  const texts = fieldsOf(kinds, 'text');
  return (buf, fields, row) => {
    for (let j = 0; j < ints.length; j++) row[ints[j]] = intOf(buf, fields, ints[j]);
    for (let j = 0; j < texts.length; j++) row[texts[j]] = textOf(buf, fields, texts[j]);
  };
}

/**
 * Reads `copy`'s rows for a writer: for each row, `each(buf, fields, row, index)` with the row's `int` and
 * `text` fields decoded into `row` (the array the columns' `value`s read; `bytes` fields stay undefined),
 * every field's place in `buf` in `fields`, and the row's index from 0; after each chunk, `chunkDone()`
 * (awaited: the writer hands its bytes on). Resolves with the number of rows. Once `out` closes (the client left: the worker
 * destroys it) the query stops at once, even before its first row, and the rows end there. With `decode`
 * false `row` is left alone: a writer that reads values only for some rows decodes those itself (rowDecoder).
 */
export async function eachCopyRow(
  copy: CopyRows,
  out: Writable,
  each: (buf: Buffer, fields: Fields, row: unknown[], index: number) => void,
  chunkDone: () => Promise<void> | void,
  decode = true,
): Promise<number> {
  const n = copy.fields.length;
  const decodeRow = decode ? rowDecoder(copy.fields) : null;
  const fields: Fields = { start: new Int32Array(n), end: new Int32Array(n), flags: new Uint8Array(n) };
  const row = new Array<unknown>(n).fill(undefined);
  let count = 0;
  let rest: Buffer | null = null;
  const gone = new AbortController();
  const abort = () => gone.abort();
  out.once('close', abort);
  if (out.destroyed) gone.abort(); // closed already (while the writer wrote its start)
  try {
    for await (const chunk of copy.chunks(gone.signal)) {
      if (out.destroyed) break;
      const buf: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
      const len = buf.length;
      let pos = 0;
      for (;;) {
        const next = splitRow(buf, pos, len, n, fields);
        if (next < 0) break;
        if (decodeRow !== null) decodeRow(buf, fields, row);
        each(buf, fields, row, count);
        count++;
        pos = next;
      }
      rest = pos < len ? buf.subarray(pos) : null;
      await chunkDone();
    }
  } catch (err) {
    if (!gone.signal.aborted) throw err; // else the query was stopped because nobody reads the file any more
  } finally {
    out.off('close', abort);
  }
  if (rest && !out.destroyed) throw new Error('COPY ended inside a row');
  return count;
}
