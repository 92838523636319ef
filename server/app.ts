/** Builds the Fastify app: plugins first, then routes. Tests call this through __tests__/server/helpers. */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { Ctx } from './context';
import authPlugin from './plugins/auth';
import errorsPlugin from './plugins/errors';
import swaggerPlugin from './plugins/swagger';
import webPlugin from './plugins/web';
import { routeModules } from './modules';

export interface BuildOptions {
  ctx: Omit<Ctx, 'log'>;
  logger?: FastifyServerOptions['logger'];
  /** Serve the client build and Swagger UI (off in most tests). */
  web?: boolean;
}

/** Secrets never reach a log: tokens, login bodies and the password route's query string. */
export const REDACTED_PATHS = ['/v1/admin/user/password'];
/** Query parameters whose values are dropped from a logged URL on any path. */
const SECRET_PARAM = /pass|pwd|token|secret/i;

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

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
      if (!SECRET_PARAM.test(decode(key))) return part;
      changed = true;
      return `${key}=[REDACTED]`;
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
    ajv: {
      customOptions: {
        verbose: true,
        allErrors: false,
        coerceTypes: 'array',
        useDefaults: true,
        removeAdditional: false,
      },
    },
    serializerOpts: { rounding: 'trunc' },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: Ctx = { ...opts.ctx, log: app.log };
  app.decorate('ctx', ctx);

  await app.register(errorsPlugin);
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(swaggerPlugin, { ui: opts.web !== false });
  await app.register(authPlugin, { ctx });

  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
      return { status: 'ok' };
    } catch (err) {
      app.log.error({ err }, 'health check failed');
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });

  for (const mod of routeModules) await app.register(mod, { ctx });

  await app.register(webPlugin, {
    webDir: ctx.config.webDir,
    uploadDir: ctx.config.uploadDir,
    serveClient: opts.web !== false,
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Ctx;
  }
}
