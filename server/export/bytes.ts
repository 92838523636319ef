/**
 * The output of the writers that make a file from PostgreSQL's COPY (./csvCopy.ts, ./xlsxCopy.ts): bytes
 * appended in place (text, copied ranges of COPY's buffers), handed on a few hundred KB at a time.
 */

/** Bytes gathered before they are written (and the writer waits for the last write to drain). */
export const WRITE_BYTES = 256 * 1024;

/** The output: bytes appended in place, handed on a few hundred KB at a time. */
export class Bytes {
  buf = Buffer.allocUnsafe(2 * WRITE_BYTES);
  used = 0;

  /** Room for at least `n` more bytes. */
  room(n: number): void {
    if (this.used + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.used + n));
    this.buf.copy(bigger, 0, 0, this.used);
    this.buf = bigger;
  }

  /** Appends text: ASCII by a loop, anything else encoded by Buffer.write. */
  text(s: string): void {
    const n = s.length;
    this.room(3 * n);
    const buf = this.buf;
    let u = this.used;
    for (let k = 0; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0x80) {
        this.used = u + buf.write(s.slice(k), u);
        return;
      }
      buf[u++] = c;
    }
    this.used = u;
  }

  /** Appends text, encoded by Buffer.write: for longer texts, where a loop per character costs more. */
  utf8(s: string): void {
    this.room(3 * s.length);
    this.used += this.buf.write(s, this.used);
  }

  /** Appends one byte. */
  byte(b: number): void {
    if (this.used === this.buf.length) this.room(1);
    this.buf[this.used++] = b;
  }

  /** Appends `src[s, e)`. */
  copy(src: Buffer, s: number, e: number): void {
    const n = e - s;
    this.room(n);
    if (n > 64) {
      src.copy(this.buf, this.used, s, e);
      this.used += n;
      return;
    }
    const buf = this.buf;
    let u = this.used;
    for (let k = s; k < e; k++) buf[u++] = src[k];
    this.used = u;
  }

  /**
   * The bytes so far, in a buffer the writer lets go of. (Handing buffers back once written and
   * writing them again was measured slower: more GC work in V8's helper threads.)
   */
  take(): Buffer {
    const chunk = this.buf.subarray(0, this.used);
    this.buf = Buffer.allocUnsafe(2 * WRITE_BYTES);
    this.used = 0;
    return chunk;
  }
}
