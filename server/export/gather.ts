/**
 * The export worker's bytes gathered into messages of about POST_BYTES (./worker.ts). The compressor
 * hands on ~50 KB at a time, and each message wakes the parent's thread: 1,404 messages for the order
 * CSV of a million rows took 379 ms of the worker's time in postMessage (on 2 cores the woken thread
 * often runs in its place); gathered, 261 (docs/performance.md, 2026-12-03).
 */

/** Bytes gathered into one message. */
export const POST_BYTES = 256 * 1024;

/**
 * Hands `post` the bytes added, in order, in buffers it owns (the writers reuse theirs; a transfer
 * moves the memory): up to POST_BYTES gathered, a chunk of POST_BYTES or more copied on its own.
 * `flush()` posts what is gathered.
 */
export function gatherer(post: (chunk: Uint8Array) => void): { add(chunk: Uint8Array): void; flush(): void } {
  let gathered = new Uint8Array(POST_BYTES);
  let used = 0;
  const flush = () => {
    if (used === 0) return;
    post(gathered.subarray(0, used));
    gathered = new Uint8Array(POST_BYTES);
    used = 0;
  };
  return {
    add(chunk) {
      if (used + chunk.length > POST_BYTES) flush();
      if (chunk.length >= POST_BYTES) {
        const copy = new Uint8Array(chunk.length);
        copy.set(chunk);
        post(copy);
      } else {
        gathered.set(chunk, used);
        used += chunk.length;
      }
    },
    flush,
  };
}
