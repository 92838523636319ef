/**
 * splitRow (server/export/pgCsvRow.ts) reads unquoted fields four bytes at a time: every field length
 * around a word's, every place a comma or LF can sit in a word, multi-byte text, and a row cut short.
 */
import { splitRow, type Fields } from '../../../server/export/pgCsvRow';

const fieldsOf = (n: number): Fields => ({
  start: new Int32Array(n),
  end: new Int32Array(n),
  flags: new Uint8Array(n),
});

/** Pseudo-random unquoted fields (no comma, LF or leading quote), some with UTF-8 and high bytes. */
function field(seed: number, length: number): string {
  const alphabet = 'ab9-.: 中\u00e9\u0080x';
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[(seed * 7 + i * 13) % alphabet.length];
  return s;
}

describe('splitRow', () => {
  it('finds every field of rows whose fields end at every offset of a word, as a byte-by-byte reading does', () => {
    for (let n = 1; n <= 6; n++) {
      for (let seed = 0; seed < 44; seed++) {
        const texts = Array.from({ length: n }, (_, i) => field(seed + i, (seed * (i + 3)) % 11));
        if (seed % 5 === 0) texts[seed % n] = `"q,${'"'.repeat(2)}\n"`; // a quoted field among them
        const row = `${texts.join(',')}\n`;
        for (const pad of [0, 1, 2, 3]) {
          const buf = Buffer.from(`${'z'.repeat(pad)}${row}${row}`);
          const f = fieldsOf(n);
          const end = splitRow(buf, pad, buf.length, n, f);
          expect(end).toBe(pad + Buffer.byteLength(row));
          let at = pad;
          for (let i = 0; i < n; i++) {
            const quoted = texts[i].startsWith('"');
            const bytes = Buffer.byteLength(texts[i]);
            expect([f.start[i], f.end[i]]).toEqual(quoted ? [at + 1, at + bytes - 1] : [at, at + bytes]);
            at += bytes + 1;
          }
          // Cut anywhere inside the row: the row goes on in the next chunk.
          if (pad === seed % 4)
            for (let len = pad; len < end; len++) expect(splitRow(buf, pad, len, n, fieldsOf(n))).toBe(-1);
        }
      }
    }
  });
});
