/**
 * A download whose client stops reading is cut after the stall limit (server/export/stall.ts
 * cutWhenStalled, applied by sendFile to every export's body), and one that a client reads slowly is not.
 */
import { PassThrough } from 'node:stream';
import { cutWhenStalled } from '../../../server/export/stall';

/** A body with a 1 KiB buffer, written past it. */
function fullBody(): PassThrough {
  const body = new PassThrough({ highWaterMark: 1024 });
  body.write(Buffer.alloc(4096));
  expect(body.writableNeedDrain).toBe(true);
  return body;
}

/** Resolves with the body's error once it is destroyed, or null after `ms`. */
function cutWithin(body: PassThrough, ms: number): Promise<Error | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    body.once('error', (e) => {
      clearTimeout(timer);
      resolve(e);
    });
  });
}

describe('cutWhenStalled', () => {
  it('destroys a body nobody reads once bytes have waited in it for the limit, with an error', async () => {
    const body = fullBody();
    cutWhenStalled(body, 100);
    const early = cutWithin(body, 40);
    expect(await early).toBeNull();
    expect(body.destroyed).toBe(false);
    expect((await cutWithin(body, 300))?.message).toMatch(/stood still/);
    expect(body.destroyed).toBe(true);
  });

  it('destroys a body its writer ended while the reader had stopped (bytes still waiting, no drain to come)', async () => {
    const body = fullBody();
    body.end();
    expect(body.writableNeedDrain).toBe(false);
    cutWhenStalled(body, 100);
    expect((await cutWithin(body, 400))?.message).toMatch(/stood still/);
  });

  it('leaves a body alone while its reader keeps taking bytes, however few at a time', async () => {
    const body = new PassThrough({ highWaterMark: 1024 });
    cutWhenStalled(body, 100);
    body.write(Buffer.alloc(64 * 1024)); // one big batch: the reader needs longer than the limit for it
    const reader = setInterval(() => body.read(16), 20);
    const cut = await cutWithin(body, 500);
    clearInterval(reader);
    expect(cut).toBeNull();
    expect(body.destroyed).toBe(false);
    body.destroy();
  });

  it('leaves an empty body alone (a file waiting for its next batch)', async () => {
    const body = new PassThrough({ highWaterMark: 1024 });
    cutWhenStalled(body, 50);
    expect(await cutWithin(body, 250)).toBeNull();
    expect(body.destroyed).toBe(false);
    body.destroy();
  });
});
