/**
 * Reading PostgreSQL's CSV (COPY … (FORMAT csv)) in place: where each field of a row lies in its buffer,
 * and a field as text or as an integer when the writer (./csvCopy.ts) needs its value.
 */
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
