/** The export worker's messages (server/export/gather.ts): the bytes in order, in fewer, owned buffers. */
import { gatherer, POST_BYTES } from '../../../server/export/gather';

describe('gatherer', () => {
  it('posts the bytes in order, gathered up to POST_BYTES, a big chunk on its own, in buffers of its own', () => {
    const posted: Uint8Array[] = [];
    const g = gatherer((c) => posted.push(c));
    const reused = Buffer.alloc(POST_BYTES * 2);
    const sizes = [50_000, 1, 70_000, 90_000, 60_000, POST_BYTES, 3, POST_BYTES + 7, 40_000, 0, 100_000];
    const want: Buffer[] = [];
    let seed = 1;
    for (const n of sizes) {
      for (let i = 0; i < n; i++) reused[i] = seed = (seed * 31 + 7) & 0xff;
      want.push(Buffer.from(reused.subarray(0, n)));
      g.add(reused.subarray(0, n)); // the writer reuses its buffer at once
    }
    reused.fill(0);
    expect(posted.map((c) => c.length)).toEqual([
      50_001 + 70_000 + 90_000, // the next 60,000 would pass POST_BYTES
      60_000,
      POST_BYTES,
      3,
      POST_BYTES + 7,
    ]);
    g.flush();
    g.flush(); // nothing more gathered: nothing posted
    expect(posted.map((c) => c.length).slice(5)).toEqual([140_000]);
    expect(Buffer.concat(posted).equals(Buffer.concat(want))).toBe(true);
    expect(posted.every((c) => c.buffer !== reused.buffer)).toBe(true);
    expect(new Set(posted.map((c) => c.buffer)).size).toBe(posted.length);
  });
});
