/**
 * Security headers on every response (the console, the API, Swagger UI, /uploads), from
 * @fastify/helmet. The console's Content-Security-Policy allows only its own scripts, so an injected
 * <script> or `onclick=` never runs, and `frame-ancestors 'none'` (with X-Frame-Options: DENY for
 * older browsers) keeps another page from framing the console over its 通过 / 驳回 / 打款 buttons.
 * Uploaded files get a stricter policy of their own (UPLOAD_HEADERS, set in ./web.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * The policy of the console and of Swagger UI (both load only their own script files, with no inline
 * script). Styles allow 'unsafe-inline': Emotion (MUI) inserts <style> elements at run time and
 * React renders `style` attributes; a nonce would need a per-request index.html and only guards
 * against CSS injection, which cannot run code. Images: the bundle's own assets and data: URIs (MUI
 * and Swagger UI icons in CSS); files the console saves go through blob: links, which are downloads
 * and need no allowance. No
 * `upgrade-insecure-requests`: the console is also run over plain HTTP on an internal address, where
 * upgrading its requests to https would break every page.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameSrc: ["'none'"],
  workerSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Uploaded files are served with these: never rendered as a document of the console's origin (a
 * sandbox without scripts, nothing loaded from anywhere), never sniffed into another type.
 */
export const UPLOAD_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
};

/**
 * `imgOrigins`: where else the console loads images from — the origin of S3_PUBLIC_URL when uploads are
 * served from a CDN or a public bucket.
 */
export default fp(async function security(app: FastifyInstance, opts: { imgOrigins?: string[] } = {}) {
  const directives = { ...CSP_DIRECTIVES, imgSrc: [...CSP_DIRECTIVES.imgSrc, ...(opts.imgOrigins ?? [])] };
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    // helmet's defaults otherwise: Referrer-Policy no-referrer, X-Content-Type-Options nosniff,
    // Cross-Origin-Opener-Policy / -Resource-Policy same-origin, Strict-Transport-Security (ignored by
    // browsers over plain HTTP), Origin-Agent-Cluster, X-DNS-Prefetch-Control off,
    // X-Permitted-Cross-Domain-Policies none, X-XSS-Protection 0, no X-Powered-By.
  });
});
