/** The production client: hashed assets cached for a year (precompressed when accepted), index.html never. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app';
import { systemClock } from '../../../server/clock';
import { loadConfig } from '../../../server/config';
import { createDb } from '../../../server/db/dialect';

let app: FastifyInstance;
let close: () => Promise<void>;
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-web-'));
const JS = 'console.log("main");'.repeat(50);

beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'js'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html lang="zh-CN"><div id="root"></div></html>');
  fs.writeFileSync(path.join(webDir, 'js/main.0123456789abcdef.js'), JS);
  fs.writeFileSync(path.join(webDir, 'js/main.0123456789abcdef.js.gz'), zlib.gzipSync(JS));
  fs.writeFileSync(path.join(webDir, 'js/main.0123456789abcdef.js.br'), zlib.brotliCompressSync(JS));
  const db = createDb('sqlite::memory:');
  close = db.close;
  const config = { ...loadConfig({}, '/tmp/lz-test'), webDir, uploadDir: path.join(webDir, 'uploads') };
  app = (await buildApp({ ctx: { db: db.db, kind: db.kind, config, clock: systemClock }, web: true })) as never;
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await close?.();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('web plugin', () => {
  it('serves a hashed asset with a year of immutable cache', async () => {
    const res = await app.inject({ url: '/js/main.0123456789abcdef.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(JS);
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
  ])('sends the precompressed %s file when accepted, cached as long', async (accept, encoding) => {
    const res = await app.inject({ url: '/js/main.0123456789abcdef.js', headers: { 'accept-encoding': accept } });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves index.html for a client route, never cached', async () => {
    const res = await app.inject({ url: '/Layout/errors/404', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root"></div>');
  });
});
