/**
 * Serves the production client: hashed assets with a year of cache (precompressed .br/.gz chosen by
 * Accept-Encoding), index.html never cached, and index.html for any other GET that wants HTML so that
 * client routes survive a reload.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Code, Messages } from '../../domain/codes';
import { API_PREFIX } from './auth';
import { sendEnvelope } from './errors';

export default fp(async function web(
  app: FastifyInstance,
  opts: { webDir: string; uploadDir: string; serveClient: boolean },
) {
  fs.mkdirSync(opts.uploadDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: opts.uploadDir,
    prefix: '/uploads/',
    decorateReply: false,
    maxAge: '7d',
  });
  const index = path.join(opts.webDir, 'index.html');
  const hasClient = opts.serveClient && fs.existsSync(index);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.webDir,
      prefix: '/',
      preCompressed: true,
      wildcard: true,
      index: false,
      // Off, or send's own "public, max-age=0" replaces the header set below.
      cacheControl: false,
      setHeaders(res, file) {
        // Webpack names every asset after its content hash: safe to cache for a year.
        const hashed = /\.[0-9a-f]{8,}\.[a-z0-9]+(\.(gz|br))?$/.test(file);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else if (opts.serveClient) {
    app.log.warn(`no client build at ${opts.webDir}: run "npm run build:web" (the API still runs)`);
  }
  const html = hasClient ? fs.readFileSync(index) : null;

  app.setNotFoundHandler((request, reply) => {
    const wantsHtml = request.method === 'GET' && String(request.headers.accept ?? '').includes('text/html');
    if (html && wantsHtml && !request.url.startsWith(API_PREFIX)) {
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
    }
    return sendEnvelope(reply, Code.notFound, Messages.apiNotFound);
  });
});
