/**
 * Uploads (issue 12): `GET oss` → PUT the bytes to uploadUrl. The same suite on the disk store and on an
 * S3-compatible store (s3rver, started here on a free local port, never the internet): the image is
 * checked by content, normalised to WebP without metadata, thumbnailed and served back with its type,
 * nosniff, a sandbox and a year of caching; every refusal named by the issue answers 400 with its reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import S3rver from 's3rver';
import type { S3Settings } from '../../../../server/modules/uploads/store';
import { UploadMessages } from '../../../../server/modules/uploads/uploads.service';
import { build, dbKind, type TestApp } from '../../helpers';

const MAX = 64 * 1024;

/** A small photo-like JPEG carrying EXIF with GPS and a camera name. */
const jpegWithExif = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'X1', Copyright: 'secret-owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '31/1 14/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '121/1 28/1 0/1' },
    })
    .toBuffer();
const png = (w = 40, h = 30) =>
  sharp({ create: { width: w, height: h, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();

interface Store {
  name: string;
  config(): Promise<{ s3: S3Settings | null; uploadDir: string }>;
  stop(): Promise<void>;
}

const disk = (): Store => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-disk-'));
  return {
    name: 'disk',
    config: async () => ({ s3: null, uploadDir: dir }),
    stop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
};

const s3 = (): Store => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-s3-'));
  let server: S3rver | null = null;
  return {
    name: 's3 (s3rver)',
    async config() {
      server = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: dir,
        configureBuckets: [{ name: 'lz-test', configs: [] }],
      });
      const { port } = (await server.run()) as unknown as { port: number };
      return {
        uploadDir: dir,
        s3: {
          endpoint: `http://127.0.0.1:${port}`,
          bucket: 'lz-test',
          region: 'us-east-1',
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          forcePathStyle: true,
          publicUrl: '',
        },
      };
    },
    async stop() {
      await server?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};

describe.each([disk, s3])(`uploads (${dbKind})`, (makeStore) => {
  const store = makeStore();
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    const c = await store.config();
    t = await build({ config: { ...c, uploadMaxBytes: MAX } });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await store.stop();
  });

  const ticket = async () => {
    const r = await t.call('GET', '/v1/admin/oss', { token });
    expect(r.code).toBe(200);
    return r.data as { uploadUrl: string; key: string; publicUrl: string; expiresAt: number; maxSize: number; accept: string };
  };
  const put = async (url: string, body: Buffer, type = 'application/octet-stream') => {
    const res = await t.app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': type } });
    expect(res.statusCode).toBe(200);
    return res.json() as { code: number; msg: string; data: { url: string; thumbUrl: string; width: number; height: number; type: string; key: string; size: number } };
  };
  const upload = async (body: Buffer, type?: string) => put((await ticket()).uploadUrl, body, type);
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it(`${store.name}: a ticket needs a session and names one key, its size and the accepted types`, async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/v1/admin/oss' });
    expect(anon.json().code).not.toBe(200);
    const k = await ticket();
    expect(k.key).toMatch(/^img\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{24}\.webp$/);
    expect(k.publicUrl).toBe(`/uploads/${k.key}`);
    expect(k.uploadUrl).toMatch(/^\/v1\/admin\/oss\/upload\/[A-Za-z0-9_-]{32}$/);
    expect(k.maxSize).toBe(MAX);
    expect(k.accept).toBe('image/png,image/jpeg,image/gif,image/webp');
    expect(k.expiresAt - t.clock.now()).toBe(10 * 60_000);
  });

  it(`${store.name}: a JPEG is stored as WebP without its EXIF and GPS, with a thumbnail, served back safely`, async () => {
    const k = await ticket();
    const r = await put(k.uploadUrl, await jpegWithExif(), 'image/jpeg');
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ key: k.key, url: k.publicUrl, width: 64, height: 48, type: 'image/webp' });
    const res = await get(r.data.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain('sandbox');
    expect(String(res.headers['cache-control'])).toMatch(/max-age=31536000.*immutable/);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(res.rawPayload.includes(Buffer.from('TestCam'))).toBe(false);
    expect(res.rawPayload.includes(Buffer.from('secret-owner'))).toBe(false);
    const thumb = await get(r.data.thumbUrl);
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(64);
    // The source really carried them (the check above can fail).
    expect((await sharp(await jpegWithExif()).metadata()).exif).toBeDefined();
  });

  it(`${store.name}: a large PNG is kept lossless, fitted into 2560 px; its thumbnail into 320 px`, async () => {
    const r = await upload(await png(3000, 1000), 'image/png');
    expect(r.data).toMatchObject({ width: 2560, height: 853 });
    const thumb = await sharp((await get(r.data.thumbUrl)).rawPayload).metadata();
    expect([thumb.width, thumb.height]).toEqual([320, 107]);
  });

  it(`${store.name}: refusals — renamed, not an image, SVG, oversize, empty, expired, reused, a forged or traversing ticket`, async () => {
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const big = Buffer.concat([await png(), Buffer.alloc(MAX)]);
    const cases: Array<[string, Promise<{ code: number; msg: string }>, string]> = [
      ['PNG renamed .jpg', upload(await png(), 'image/jpeg'), UploadMessages.mismatch('PNG', 'JPEG')],
      ['HTML renamed .png', upload(html, 'image/png'), UploadMessages.notImage],
      ['SVG', upload(svg, 'image/svg+xml'), UploadMessages.notImage],
      ['oversize', upload(big, 'image/png'), UploadMessages.tooLarge(MAX)],
      ['empty', upload(Buffer.alloc(0)), UploadMessages.empty],
      ['truncated PNG', upload((await png(200, 200)).subarray(0, 60), 'image/png'), UploadMessages.broken],
      ['forged ticket', put('/v1/admin/oss/upload/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', await png()), UploadMessages.badTicket],
      ['traversal', put('/v1/admin/oss/upload/..%2F..%2Fetc%2Fpasswd', await png()), UploadMessages.badTicket],
    ];
    for (const [what, p, msg] of cases) {
      const r = await p;
      expect({ what, code: r.code, msg: r.msg }).toEqual({ what, code: 400, msg });
    }
    // Without a Content-Length the bytes are counted while they stream, and refused past the limit.
    const streamed = await ticket();
    const chunks = [await png(), Buffer.alloc(MAX / 2), Buffer.alloc(MAX / 2), Buffer.alloc(MAX / 2)];
    const res = await t.app.inject({
      method: 'PUT',
      url: streamed.uploadUrl,
      payload: Readable.from(chunks),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.headers['content-length']).toBeDefined();
    expect(res.json()).toMatchObject({ code: 400, msg: UploadMessages.tooLarge(MAX) });
    const reused = await ticket();
    expect((await put(reused.uploadUrl, await png())).code).toBe(200);
    expect((await put(reused.uploadUrl, await png())).msg).toBe(UploadMessages.usedTicket);
    const late = await ticket();
    t.clock.advance(10 * 60_000 + 1);
    expect((await put(late.uploadUrl, await png())).msg).toBe(UploadMessages.expiredTicket);
    // Nothing refused was stored; only .webp keys the server made are ever served.
    for (const url of ['/uploads/../package.json', '/uploads/%2e%2e/package.json', '/uploads/img/none.webp']) {
      const res = await get(url);
      expect({ url, type: res.headers['content-type'], code: res.json().code }).toEqual({
        url,
        type: 'application/json; charset=utf-8',
        code: 404,
      });
    }
  });
});
