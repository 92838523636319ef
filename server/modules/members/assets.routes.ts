/** The asset query (资产查询): /query/list. Registered by members.routes.ts. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import { ok, type Static } from '../../http/schemas';
import { QueryListQuery, QueryListResult } from './assets.schema';
import { listAssets } from './assets.service';

export default async function assetRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
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
    async (req) => ok(await listAssets(ctx, req.query as Static<typeof QueryListQuery>)),
  );
}
