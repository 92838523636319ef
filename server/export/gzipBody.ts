/**
 * The DEFLATE stream inside a gzip stream (RFC 1952): zlib's gzip output with its 10-byte header dropped
 * and its 8-byte trailer (CRC-32 of the data, then its size modulo 2^32) held back. ./zip.ts streams a
 * ZIP entry through gzip for that trailer: the CRC-32 is worked out on the thread pool with the
 * compression instead of on the writer's thread (0.45 µs per sheet row there: docs/performance.md).
 */

/** Bytes of the header zlib's gzip stream starts with (no name, no extra field: RFC 1952 §2.3). */
const GZIP_HEADER = 10;
/** Bytes of the gzip trailer. */
const GZIP_TRAILER = 8;

export class GzipBody {
  /** Header bytes still to drop. */
  private skip = GZIP_HEADER;
  /** The newest bytes, held back: at the end of the stream they are its trailer. */
  private tail = Buffer.alloc(0);

  /** The DEFLATE bytes a chunk of gzip output makes certain (zero, one or two pieces, in order). */
  take(chunk: Buffer): Buffer[] {
    let data = chunk;
    if (this.skip > 0) {
      const cut = Math.min(this.skip, data.length);
      this.skip -= cut;
      data = data.subarray(cut);
    }
    let ready: Buffer[];
    if (data.length >= GZIP_TRAILER) {
      ready = [this.tail, data.subarray(0, data.length - GZIP_TRAILER)];
      this.tail = Buffer.from(data.subarray(data.length - GZIP_TRAILER));
    } else {
      const all = Buffer.concat([this.tail, data]);
      const keep = Math.min(GZIP_TRAILER, all.length);
      ready = [all.subarray(0, all.length - keep)];
      this.tail = all.subarray(all.length - keep);
    }
    return ready.filter((part) => part.length > 0);
  }

  /** At the stream's end: the data's CRC-32, checked against the size the caller counted. */
  crcOf(size: number): number {
    if (this.tail.length !== GZIP_TRAILER || this.tail.readUInt32LE(4) !== size % 2 ** 32) {
      throw new Error("gzip: the compressor's trailer does not match the data written");
    }
    return this.tail.readUInt32LE(0);
  }
}
