/** Zones (专区): the list and zone/opt. Registered by members.routes.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import { ZoneListQuery, ZoneListResult, ZoneOptBody, ZoneOptResult } from './zones.schema';
import { listZones, zoneOpt } from './zones.service';

const zoneRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/zone/list',
    {
      config: { permission: 'zone:view' },
      schema: {
        operationId: 'listZones',
        tags: ['zone'],
        summary: '专区列表',
        querystring: ZoneListQuery,
        response: { 200: ZoneListResult },
      },
    },
    async (req) => ok(await listZones(ctx, req.query)),
  );

  app.post(
    '/v1/admin/zone/opt',
    {
      config: { permission: 'zone:opt' },
      schema: {
        operationId: 'zoneOpt',
        tags: ['zone'],
        summary: '专区操作：新增、修改、启用、停用、删除',
        body: ZoneOptBody,
        response: { 200: ZoneOptResult },
      },
    },
    async (req) => ok(await zoneOpt(ctx, actorOf(req), req.body)),
  );
};

export default zoneRoutes;
