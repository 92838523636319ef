/** Builds the Fastify app: plugins first, then routes. Tests call this through __tests__/server/helpers. */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { Ctx } from './context';
import { setDbLog } from './db/dialect';
import { readWithGenericPlan } from './db/statements';
import authPlugin from './plugins/auth';
import errorsPlugin from './plugins/errors';
import securityPlugin from './plugins/security';
import { DECIMAL_FORMAT, MULTILINE } from './http/schemas';
import inputGuard from './http/inputGuard';
import swaggerPlugin from './plugins/swagger';
import webPlugin from './plugins/web';
import { routeModules } from './modules';

export interface BuildOptions {
  ctx: Omit<Ctx, 'log'>;
  logger?: FastifyServerOptions['logger'];
  /** Serve the client build and Swagger UI (off in most tests). */
  web?: boolean;
}

/** How long /healthz waits for the database's `select 1`. */
const HEALTH_TIMEOUT_MS = 5000;

/** Secrets never reach a log: tokens, login bodies and the password route's query string. */
export const REDACTED_PATHS = ['/v1/admin/user/password'];
/**
 * Query parameters whose values are dropped from a logged URL on any path: a client may put a
 * credential in the query (`?Authorization=…`, `?access_token=…`) even though the API never reads it.
 */
const SECRET_PARAM = /pass|pwd|token|secret|auth|bearer|jwt|credential|session|cookie|sign|api[-_]?key|private/i;
/** A parameter name that is only a name; anything else (`Bearer%20abc…`) may be the secret itself. */
const PLAIN_NAME = /^[\w.[\]-]{1,64}$/;

/** Decodes what can be decoded: one bad escape (`%ZZ`) must not hide a `%6B` next to it. */
const decode = (s: string) =>
  s.replace(/\+/g, ' ').replace(/(%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // A broken UTF-8 sequence: still decode the ASCII escapes in it.
      return run.replace(/%[0-7][0-9a-f]/gi, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));
    }
  });

/**
 * The URL as it may be logged. A redacted route's whole query string goes, however its path is
 * spelled (case, percent-encoding, doubled or trailing slashes: a variant that misses the route is
 * logged too); on any path, so do the values of parameters named like a secret.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pathPart = url.slice(0, q);
  const normalized = decode(pathPart)
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '');
  if (REDACTED_PATHS.includes(normalized)) return `${pathPart}?[REDACTED]`;
  let changed = false;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      const name = decode(key);
      if (!SECRET_PARAM.test(name)) return part;
      changed = true;
      return PLAIN_NAME.test(name) ? `${key}=[REDACTED]` : '[REDACTED]';
    });
  return changed ? `${pathPart}?${params.join('&')}` : url;
}

/**
 * Logger options for the server and for tests that capture the log: request lines carry method and
 * a redacted URL only; headers (Authorization) and bodies are never logged.
 */
export function loggerOptions(level: string, stream?: { write(msg: string): void }) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'password', 'body.password', '*.password', 'token'],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: opts.ctx.config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // A request must arrive whole within 5 minutes (Node's own default, which Fastify turns off): a
    // stalled upload does not hold its ticket and temporary file for ever. Responses (exports) are not timed.
    requestTimeout: 300_000,
    ajv: {
      customOptions: {
        verbose: true,
        allErrors: false,
        coerceTypes: 'array',
        useDefaults: true,
        removeAdditional: false,
        // Annotations of server/http/schemas.ts read by inputGuard: known to Ajv, checked by the hook
        // (a decimal's own pattern does the validating).
        keywords: [MULTILINE],
        formats: { [DECIMAL_FORMAT]: true },
      },
    },
    // The serializer's own Ajv (it picks anyOf branches by validating) knows the annotation too; it
    // warned "unknown format" when it compiled the settings answer's serializer.
    serializerOpts: { rounding: 'trunc', ajv: { formats: { [DECIMAL_FORMAT]: true } } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: Ctx = { ...opts.ctx, log: app.log };
  app.decorate('ctx', ctx);

  await app.register(errorsPlugin);
  // Before every route and static file, so that each response carries the security headers.
  const publicUploads = ctx.config.s3?.publicUrl;
  await app.register(securityPlugin, { imgOrigins: publicUploads ? [new URL(publicUploads).origin] : [] });
  await app.register(inputGuard);
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(swaggerPlugin, { ui: opts.web !== false });
  await app.register(authPlugin, { ctx });

  // A lost database connection is a warning in this log, and the pool goes on with new connections.
  setDbLog(ctx.db, app.log);

  // 503 while the database is unreachable, 200 again once it answers: no restart in between. A
  // database that does not answer in time counts as down (an unreachable host would hang the check).
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
    });
    try {
      // Both PostgreSQL pools: the session lookups run on the generic-plan one (readWithGenericPlan).
      const select1 = sql`select 1`;
      await Promise.race([
        Promise.all([select1.execute(ctx.db), readWithGenericPlan(ctx.db, select1.compile(ctx.db))]),
        timeout,
      ]);
      return { status: 'ok' };
    } catch (err) {
      app.log.warn({ err }, 'health check failed');
      return reply.code(503).send({ status: 'database unreachable' });
    } finally {
      clearTimeout(timer);
    }
  });

  for (const mod of routeModules) await app.register(mod, { ctx });

  await app.register(webPlugin, {
    webDir: ctx.config.webDir,
    uploadDir: ctx.config.uploadDir,
    uploadsOnDisk: !ctx.config.s3,
    serveClient: opts.web !== false,
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Ctx;
  }
}
