/** The production client: hashed assets cached for a year (precompressed when accepted), index.html never. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp, loggerOptions } from '../../../server/app';
import { systemClock } from '../../../server/clock';
import { loadConfig } from '../../../server/config';
import { createDb } from '../../../server/db/dialect';

let app: FastifyInstance;
let close: () => Promise<void>;
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-web-'));
const JS = 'console.log("main");'.repeat(50);
/** Every line the server logs, to check that no request here is an error-level event. */
const logLines: string[] = [];
const errorLines = () => logLines.filter((l) => JSON.parse(l).level >= 50);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'js'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html lang="zh-CN"><div id="root"></div></html>');
  fs.writeFileSync(path.join(webDir, 'js/main.0123456789abcdef.js'), JS);
  fs.writeFileSync(path.join(webDir, 'js/main.0123456789abcdef.js.gz'), zlib.gzipSync(JS));
  fs.writeFileSync(path.join(webDir, 'js/main.0123456789abcdef.js.br'), zlib.brotliCompressSync(JS));
  fs.writeFileSync(path.join(webDir, 'js/7241.a1b2c3.js'), JS); // a chunk: six hex digits (webpack.config.js)
  fs.writeFileSync(path.join(webDir, 'js/plain.js'), JS);
  const uploads = path.join(webDir, 'uploads');
  fs.mkdirSync(path.join(uploads, 'demo'), { recursive: true });
  fs.writeFileSync(path.join(uploads, 'demo/qr.png'), PNG);
  fs.writeFileSync(path.join(uploads, 'photo.JPG'), PNG);
  fs.writeFileSync(
    path.join(uploads, 'evil.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  fs.writeFileSync(path.join(uploads, 'evil.html'), '<script>alert(1)</script>');
  fs.writeFileSync(path.join(uploads, 'evil.txt'), '<script>alert(1)</script>');
  fs.writeFileSync(path.join(webDir, 'secret.txt'), 'outside the upload dir');
  const db = createDb('sqlite::memory:');
  close = db.close;
  const config = { ...loadConfig({}, '/tmp/lz-test'), webDir, uploadDir: uploads };
  app = (await buildApp({
    ctx: { db: db.db, kind: db.kind, config, clock: systemClock },
    web: true,
    logger: loggerOptions('info', { write: (line) => logLines.push(line) }),
  })) as never;
  // A client error from a plugin, as @fastify/send raises them (http-errors with `status`/`expose`).
  const clientError = (status: number) =>
    Object.assign(new Error('from a plugin'), { status, statusCode: status, expose: true });
  app.get('/test/plugin-403', async () => {
    throw clientError(403);
  });
  app.get('/test/plugin-416', async () => {
    throw clientError(416);
  });
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
    const chunk = await app.inject({ url: '/js/7241.a1b2c3.js' });
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await app.inject({ url: '/js/plain.js' });
    expect(plain.headers['cache-control']).toBe('no-cache');
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

describe('robots.txt', () => {
  it('lets crawlers see the login page and nothing behind it', async () => {
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('User-agent: *\nAllow: /login$\nDisallow: /\n');
  });
});

describe('requests that are no file answer 404 or the page, never 500 or an error log', () => {
  beforeEach(() => {
    logLines.length = 0;
  });
  afterEach(() => {
    expect(errorLines()).toEqual([]);
  });

  it.each([
    ['/', {}],
    ['/', { 'accept-encoding': 'gzip, br' }],
    ['/js/', {}],
    ['/js/', { 'accept-encoding': 'br' }],
  ])('GET %s (%j) without text/html is the 404 envelope', async (url, headers) => {
    const res = await app.inject({ url, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 404 });
  });

  it.each(['/', '/js/'])('GET %s from a browser is the page', async (url) => {
    const res = await app.inject({ url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });

  it.each([
    '/uploads/..%2fsecret.txt',
    '/uploads/..%2f..%2fetc/passwd',
    '/uploads/%2e%2e%2fsecret.txt',
    '/uploads/demo/..%2f..%2findex.html',
    '/uploads/..%5csecret.txt',
    '/uploads/..%2f..%2fetc%2fpasswd%00.png',
    '/uploads/',
    '/uploads/demo/',
    '/uploads/demo',
  ])('GET %s is a 404, whatever the Accept', async (url) => {
    for (const accept of ['*/*', 'text/html']) {
      const res = await app.inject({ url, headers: { accept } });
      expect(res.statusCode).toBe(200);
      expect(res.json().code).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain('outside the upload dir');
    }
  });

  it('turns a 403 that a plugin raises into the not-found answer, logged as info', async () => {
    const res = await app.inject({ url: '/test/plugin-403' });
    expect(res.json()).toMatchObject({ code: 404 });
    expect(logLines.map((l) => JSON.parse(l)).some((l) => l.level === 30 && l.status === 403)).toBe(true);
  });

  it('keeps the status of another client error from a plugin (416 of a range request)', async () => {
    const res = await app.inject({ url: '/test/plugin-416' });
    expect(res.statusCode).toBe(416);
  });
});

describe('uploaded files', () => {
  it.each([
    ['/uploads/demo/qr.png', 'image/png'],
    ['/uploads/photo.JPG', 'image/jpeg'],
  ])('serves the image %s sandboxed, never sniffed', async (url, type) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(PNG)).toBe(true);
  });

  it.each(['/uploads/evil.svg', '/uploads/evil.html', '/uploads/evil.txt', '/uploads/EVIL.SVG'])(
    'refuses %s (not a raster image) with a 404, never the console page',
    async (url) => {
      for (const accept of ['*/*', 'text/html']) {
        const res = await app.inject({ url, headers: { accept } });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toMatchObject({ code: 404 });
        expect(res.body).not.toContain('<script>');
      }
    },
  );
});

describe('security headers', () => {
  const expectHelmet = (headers: Record<string, unknown>) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['x-powered-by']).toBeUndefined();
  };

  it('sends the console a strict CSP: own scripts only, never framed', async () => {
    const res = await app.inject({ url: '/login', headers: { accept: 'text/html' } });
    expectHelmet(res.headers);
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['default-src']).toBe("'self'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['script-src-attr']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['connect-src']).toBe("'self'");
    expect(directives['base-uri']).toBe("'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it.each(['/js/main.0123456789abcdef.js', '/docs', '/openapi.json', '/healthz', '/v1/admin/user/menus'])(
    'sends them on %s too',
    async (url) => {
      const res = await app.inject({ url });
      expectHelmet(res.headers);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    },
  );
});
