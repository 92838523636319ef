/**
 * A download whose client stopped reading (server/export/export.ts sendFile puts every export's body
 * under this guard): cut after the stall limit, so it cannot hold its export's worker, connection and
 * memory for as long as its connection lives.
 */
import type { PassThrough } from 'node:stream';

/**
 * How long a download may stand still (bytes waiting in its body, none taken) before it is cut:
 * a client that stops reading but keeps its connection open would otherwise hold its export (a worker
 * slot, a database connection, a batch in memory) for as long as the connection lives. A slow link
 * still drains its buffer every few seconds; two minutes of nothing is a client that is gone.
 */
let stallLimitMs = 120_000;

/** For tests: the stall limit (see stallLimitMs). */
export function setExportStallLimit(ms: number): void {
  stallLimitMs = ms;
}

/**
 * Destroys `body` (with an error: the response is cut, the export's writer or worker stops) once bytes
 * have waited in it for `limitMs` without any of them being taken. Progress is any change of what waits
 * (the reader took bytes, or the writer added a batch, which it does only after a drain), so a slow but
 * steady reader is never cut, and a reader that stops after the writer ended the body (bytes still
 * waiting, no drain to wait for) is. Checked a few times per limit on the monotonic clock, never after
 * the body closes.
 */
export function cutWhenStalled(body: PassThrough, limitMs = stallLimitMs): void {
  let waiting = 0;
  let moved = performance.now();
  const timer = setInterval(
    () => {
      const now = performance.now();
      const w = body.writableLength + body.readableLength;
      if (w === 0 || w !== waiting) {
        waiting = w;
        moved = now;
      } else if (now - moved >= limitMs) {
        body.destroy(new Error(`the download stood still for ${Math.round(limitMs / 1000)} s: cut`));
      }
    },
    Math.max(Math.floor(limitMs / 4), 10),
  );
  timer.unref();
  body.once('close', () => clearInterval(timer));
}
