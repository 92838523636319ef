/**
 * One central check: every /v1 route declares `config.permission` (a code of the permission tree)
 * or `config.auth` ('session': any logged-in manager; 'public': nobody needs to be). A route that
 * declares neither, or an unknown code, stops the server at start. The check runs in onRequest, before
 * validation, so a caller without a session or permission learns nothing about the input rules.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Code, Messages } from '../../domain/codes';
import { isPermissionCode } from '../../domain/permissions';
import { STEP_UP_CODES, TotpMessages } from '../../domain/totp';
import type { Actor, Ctx } from '../context';
import { AppError } from '../errors';
import { resolveSession, type SessionManager } from '../modules/auth/session.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission code a caller's role must hold; a list means any one of them, for a route that
     * serves several pages (withdrawals and extracts) — its service then checks the precise code with
     * assertCan().
     */
    permission?: string | string[];
    /** 'session': only a valid session; 'public': no session (login). */
    auth?: 'session' | 'public';
    /**
     * A money action (its permission is one of STEP_UP_CODES): a manager with an authenticator must
     * have given a code within STEP_UP_SECONDS, else the answer is 428 and the console asks for one.
     */
    stepUp?: boolean;
    /** Open to a manager whose role asks for an authenticator he has not bound yet (binding, logout). */
    beforeTotp?: boolean;
  }
  interface FastifyRequest {
    manager: SessionManager | null;
  }
  interface FastifyInstance {
    /** Every /v1 route as declared (method, url, permission, auth): for the route-walking tests and docs. */
    routeTable: RouteDeclaration[];
  }
}

export interface RouteDeclaration {
  method: string;
  url: string;
  permission?: string | string[];
  auth?: string;
  stepUp?: boolean;
  beforeTotp?: boolean;
}

type RouteConfig = Omit<RouteDeclaration, 'method' | 'url'>;

export function actorOf(request: { manager: SessionManager | null; ip: string }): Actor {
  if (!request.manager) throw new AppError(Code.notLoggedIn, Messages.notLoggedIn);
  return { managerId: request.manager.id, username: request.manager.username, ip: request.ip };
}

export const API_PREFIX = '/v1/';

/** Refuses with 403 unless the caller's role holds `code`. */
export function assertCan(request: { manager: SessionManager | null }, code: string): void {
  if (!request.manager) throw new AppError(Code.notLoggedIn, Messages.notLoggedIn);
  if (!request.manager.codes.has(code)) throw new AppError(Code.forbidden, Messages.forbidden);
}

const codesOf = (permission: string | string[] | undefined): string[] =>
  permission === undefined ? [] : Array.isArray(permission) ? permission : [permission];

export default fp(async function auth(app: FastifyInstance, opts: { ctx: Ctx }) {
  app.decorateRequest('manager', null);
  const routeTable: RouteDeclaration[] = [];
  app.decorate('routeTable', routeTable);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const config = (route.config ?? {}) as RouteConfig;
    const methods = [route.method].flat();
    for (const method of methods) {
      routeTable.push({
        method,
        url: route.url,
        permission: config.permission,
        auth: config.auth,
        stepUp: config.stepUp,
        beforeTotp: config.beforeTotp,
      });
    }
    const declared = [codesOf(config.permission).length > 0 || undefined, config.auth].filter(Boolean).length;
    if (declared !== 1) {
      throw new Error(
        `route ${route.method} ${route.url} must declare exactly one of config.permission or config.auth`,
      );
    }
    for (const code of codesOf(config.permission)) {
      if (!isPermissionCode(code))
        throw new Error(`route ${route.method} ${route.url} names unknown permission ${code}`);
    }
    if (config.auth && !['session', 'public'].includes(config.auth)) {
      throw new Error(`route ${route.method} ${route.url} has bad config.auth ${config.auth}`);
    }
    const movesMoney = codesOf(config.permission).some((code) => STEP_UP_CODES.has(code));
    if (movesMoney && methods.includes('POST') && config.stepUp !== true) {
      throw new Error(`route ${route.method} ${route.url} moves money and must declare config.stepUp`);
    }
  });

  const stepUpMs = opts.ctx.config.stepUpSeconds * 1000;
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config as RouteConfig;
    // Decide by the route that matched, never by the raw URL: the router decodes the path, so
    // '/%761/admin/…' reaches a /v1 route while its URL does not start with '/v1/'.
    const routeUrl = request.routeOptions.url;
    if (routeUrl === undefined || !routeUrl.startsWith(API_PREFIX) || config.auth === 'public') return;
    if (!codesOf(config.permission).length && config.auth !== 'session') {
      throw new AppError(Code.forbidden, Messages.forbidden); // cannot happen (onRoute checks); fail closed
    }
    const header = request.headers.authorization;
    const manager = await resolveSession(opts.ctx, typeof header === 'string' ? header.trim() : undefined);
    request.manager = manager;
    const needed = codesOf(config.permission);
    if (manager.mustBindTotp && !config.beforeTotp) {
      throw new AppError(Code.totpBindRequired, TotpMessages.bindRequired);
    }
    if (needed.length && !needed.some((code) => manager.codes.has(code))) {
      throw new AppError(Code.forbidden, Messages.forbidden);
    }
    if (config.stepUp && manager.totpOn) {
      const fresh = manager.mfaAt !== null && opts.ctx.clock.now() - manager.mfaAt <= stepUpMs;
      if (!fresh) throw new AppError(Code.stepUp, TotpMessages.stepUp);
    }
  });
});
