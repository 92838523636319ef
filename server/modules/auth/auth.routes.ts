import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { LoginBody, LoginResult, LogoutResult, MenuResult } from './auth.schema';
import { login, logout, menuFor } from './auth.service';

const authRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.post(
    '/v1/admin/user/login',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary: '登录',
        body: LoginBody,
        response: { 200: LoginResult },
      },
    },
    async (req) =>
      ok(await login(ctx, { ...req.body, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') })),
  );

  app.post(
    '/v1/admin/user/logout',
    {
      config: { auth: 'session', beforeTotp: true },
      schema: { operationId: 'logout', tags: ['auth'], summary: '退出登录', response: { 200: LogoutResult } },
    },
    async (req) => {
      await logout(ctx, req.manager!.sessionId);
      return ok(null);
    },
  );

  app.get(
    '/v1/admin/user/menu',
    {
      config: { auth: 'session', beforeTotp: true },
      schema: { operationId: 'getMenu', tags: ['auth'], summary: '当前管理员的菜单', response: { 200: MenuResult } },
    },
    async (req) => ok(menuFor(req.manager!)),
  );
};

export default authRoutes;
