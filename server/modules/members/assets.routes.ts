/** The asset query (资产查询): /query/list. Registered by members.routes.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { QueryListQuery, QueryListResult } from './assets.schema';
import { listAssets } from './assets.service';

const assetRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/query/list',
    {
      config: { permission: 'query:view' },
      schema: {
        operationId: 'listAssets',
        tags: ['query'],
        summary: '资产查询：每个会员每个币种一行，sum 为筛选结果按币种合计',
        querystring: QueryListQuery,
        response: { 200: QueryListResult },
      },
    },
    async (req) => ok(await listAssets(ctx, req.query)),
  );
};

export default assetRoutes;
