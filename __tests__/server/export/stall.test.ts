/**
 * A download whose client stops reading is cut after the stall limit (server/export/export.ts
 * cutWhenStalled, applied by sendFile to every export's body), and one that a client reads slowly is not.
 */
import { PassThrough } from 'node:stream';
import { cutWhenStalled } from '../../../server/export/export';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A body with a 1 KiB buffer, written past it. */
function fullBody(): PassThrough {
  const body = new PassThrough({ highWaterMark: 1024 });
  body.write(Buffer.alloc(4096));
  expect(body.writableNeedDrain).toBe(true);
  return body;
}

describe('cutWhenStalled', () => {
  it('destroys a body nobody reads once it has needed draining for the limit, with an error', async () => {
    const body = fullBody();
    const errors: Error[] = [];
    body.on('error', (e) => errors.push(e));
    cutWhenStalled(body, 100);
    await sleep(40);
    expect(body.destroyed).toBe(false);
    await sleep(200);
    expect(body.destroyed).toBe(true);
    expect(errors[0]?.message).toMatch(/stood still/);
  });

  it('leaves a body alone while its reader keeps taking bytes, however slowly', async () => {
    const body = new PassThrough({ highWaterMark: 1024 });
    cutWhenStalled(body, 100);
    const until = Date.now() + 400;
    // The writer fills the buffer; a slow reader takes a little every 30 ms, so it drains often.
    const reader = setInterval(() => body.read(1500), 30);
    while (Date.now() < until) {
      if (!body.write(Buffer.alloc(2048))) await new Promise((r) => body.once('drain', r));
    }
    clearInterval(reader);
    expect(body.destroyed).toBe(false);
    body.destroy();
  });

  it('leaves a body alone that does not need draining (a file waiting for its next batch)', async () => {
    const body = new PassThrough({ highWaterMark: 1024 });
    cutWhenStalled(body, 50);
    body.write(Buffer.alloc(100));
    await sleep(200);
    expect(body.destroyed).toBe(false);
    body.destroy();
  });

  it('stops watching once the body closes', async () => {
    const body = fullBody();
    cutWhenStalled(body, 50);
    body.destroy();
    await sleep(120);
    expect(body.listenerCount('drain')).toBe(0);
  });
});
