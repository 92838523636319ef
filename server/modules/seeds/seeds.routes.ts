/** Seed records and their daily releases (read-only for managers). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { SeedListQuery, SeedListResult, SeedReleaseListQuery, SeedReleaseListResult } from './seeds.schema';
import { listSeedReleases, listSeeds } from './seeds.service';

const seedRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/seed/list',
    {
      config: { permission: 'seed:view' },
      schema: {
        operationId: 'listSeeds',
        tags: ['seed'],
        summary: '种子记录（含最近一次结算）',
        querystring: SeedListQuery,
        response: { 200: SeedListResult },
      },
    },
    async (req) => ok(await listSeeds(ctx, req.query)),
  );

  app.get(
    '/v1/admin/seed/release/list',
    {
      config: { permission: 'seed:view' },
      schema: {
        operationId: 'listSeedReleases',
        tags: ['seed'],
        summary: '种子释放明细（按日，最新在前）',
        querystring: SeedReleaseListQuery,
        response: { 200: SeedReleaseListResult },
      },
    },
    async (req) => ok(await listSeedReleases(ctx, req.query)),
  );
};

export default seedRoutes;
