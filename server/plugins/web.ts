/**
 * Serves the production client: hashed assets with a year of cache (precompressed .br/.gz chosen by
 * Accept-Encoding), index.html never cached, and index.html for any other GET that wants HTML so that
 * client routes survive a reload. Uploaded files: images only, each in a sandbox (UPLOAD_HEADERS).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Code, Messages } from '../../domain/codes';
import { API_PREFIX } from './auth';
import { sendEnvelope } from './errors';
import { UPLOAD_HEADERS } from './security';

/**
 * What /uploads serves: raster images, which a browser never runs. SVG (scripts inside) and HTML are
 * left out: from the console's origin they could run with the console's session.
 */
const UPLOAD_IMAGE = /\.(?:png|jpe?g|gif|webp)$/i;
/**
 * A directory (`/js/`, `/`), a `..` segment or a backslash: never a file we serve, answered as an
 * unknown path (send would throw a 403 for it, which is no server error).
 */
const NOT_A_FILE = /(?:^|[\\/])\.\.(?:[\\/]|$)|\/$|\\/;
const UPLOADS_PREFIX = '/uploads/';

/**
 * What crawlers may fetch: the login page, the console's only page a stranger can see, and nothing
 * else (the pages behind it, the API, the docs, the uploads). A back-office console has no business
 * in search results beyond its front door; robots.txt is advice, the sessions are the lock.
 */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /login$\nDisallow: /\n';

export const isServableUpload = (pathname: string) => UPLOAD_IMAGE.test(pathname) && !NOT_A_FILE.test(pathname);

export default fp(async function web(
  app: FastifyInstance,
  opts: { webDir: string; uploadDir: string; serveClient: boolean; uploadsOnDisk: boolean },
) {
  // Uploads in an S3 bucket are served by the uploads module instead.
  if (opts.uploadsOnDisk) {
    fs.mkdirSync(opts.uploadDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: opts.uploadDir,
      prefix: UPLOADS_PREFIX,
      decorateReply: false,
      // Uploaded images never change under their key (a new upload gets a new key).
      maxAge: '365d',
      immutable: true,
      index: false,
      // Anything else is a 404 before the file system is asked (no directory, no traversal).
      allowedPath: (pathname) => isServableUpload(pathname),
      setHeaders(res) {
        for (const [name, value] of Object.entries(UPLOAD_HEADERS)) res.setHeader(name, value);
      },
    });
  }
  const index = path.join(opts.webDir, 'index.html');
  const hasClient = opts.serveClient && fs.existsSync(index);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.webDir,
      prefix: '/',
      preCompressed: true,
      wildcard: true,
      index: false,
      // A directory (`/`, `/js/`) goes to the not-found handler (the page or a 404) instead of send's 403.
      allowedPath: (pathname) => !NOT_A_FILE.test(pathname),
      // Off, or send's own "public, max-age=0" replaces the header set below.
      cacheControl: false,
      setHeaders(res, file) {
        // Webpack names every asset after its content hash: safe to cache for a year.
        const hashed = /\.[0-9a-f]{6,}\.[a-z0-9]+(\.(gz|br))?$/.test(file);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else if (opts.serveClient) {
    app.log.warn(`no client build at ${opts.webDir}: run "npm run build:web" (the API still runs)`);
  }
  const html = hasClient ? fs.readFileSync(index) : null;
  if (opts.serveClient) {
    app.get('/robots.txt', { config: { auth: 'public' }, schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=86400').send(ROBOTS_TXT),
    );
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsHtml = request.method === 'GET' && String(request.headers.accept ?? '').includes('text/html');
    const spaRoute = !request.url.startsWith(API_PREFIX) && !request.url.startsWith(UPLOADS_PREFIX);
    if (html && wantsHtml && spaRoute) {
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
    }
    return sendEnvelope(reply, Code.notFound, Messages.apiNotFound);
  });
});
