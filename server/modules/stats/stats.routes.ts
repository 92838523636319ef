/** 数据统计 (SPEC.md GET stat) and the welcome page's waiting work (GET welcome, any manager). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { StatQuery, StatResult, WelcomeResult } from './stats.schema';
import { getStat, getWelcome } from './stats.service';

const statRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/stat',
    {
      config: { permission: 'stat:view' },
      schema: {
        operationId: 'getStat',
        tags: ['stat'],
        summary: '数据统计：区间合计、当前待办与每日序列（最长 366 天）',
        querystring: StatQuery,
        response: { 200: StatResult },
      },
    },
    async (req) => ok(await getStat(ctx, req.query)),
  );

  app.get(
    '/v1/admin/welcome',
    {
      config: { auth: 'session' },
      schema: {
        operationId: 'getWelcome',
        tags: ['stat'],
        summary: '欢迎页：上次登录与当前管理员可处理的待办数量',
        response: { 200: WelcomeResult },
      },
    },
    async (req) => ok(await getWelcome(ctx, req.manager!)),
  );
};

export default statRoutes;
