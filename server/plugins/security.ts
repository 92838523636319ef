/**
 * Security headers on every response (the console, the API, Swagger UI, /uploads), from helmet's
 * middleware, worked out once at start (helmetHeaders). The console's Content-Security-Policy allows
 * only its own scripts, so an injected <script> or `onclick=` never runs, and `frame-ancestors 'none'`
 * (with X-Frame-Options: DENY for older browsers) keeps another page from framing the console over its
 * 通过 / 驳回 / 打款 buttons.
 * Uploaded files get a stricter policy of their own (UPLOAD_HEADERS, set in ./web.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

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

type HelmetOptions = Parameters<typeof helmet>[0];

/**
 * The headers helmet sets for these options, worked out once: helmet is run on a stand-in response that
 * records them. @fastify/helmet runs `helmet(options)` on every request, parsing the CSP directives
 * each time — 10 % of the server's CPU on the cheapest authenticated call (docs/performance.md, issue 16).
 */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
  };
  let failure: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return [...headers];
}

/**
 * `imgOrigins`: where else the console loads images from — the origin of S3_PUBLIC_URL when uploads are
 * served from a CDN or a public bucket.
 */
export default fp(async function security(app: FastifyInstance, opts: { imgOrigins?: string[] } = {}) {
  const directives = { ...CSP_DIRECTIVES, imgSrc: [...CSP_DIRECTIVES.imgSrc, ...(opts.imgOrigins ?? [])] };
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    // helmet's defaults otherwise: Referrer-Policy no-referrer, X-Content-Type-Options nosniff,
    // Cross-Origin-Opener-Policy / -Resource-Policy same-origin, Strict-Transport-Security (ignored by
    // browsers over plain HTTP), Origin-Agent-Cluster, X-DNS-Prefetch-Control off,
    // X-Permitted-Cross-Domain-Policies none, X-XSS-Protection 0, no X-Powered-By.
  });
  // On the raw response, as helmet does: a route's own value (UPLOAD_HEADERS, set later on the reply or
  // on the raw response by the static files) replaces them.
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    done();
  });
});
