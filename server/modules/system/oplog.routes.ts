import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { OpLogListQuery, OpLogListResult } from './oplog.schema';
import { listOpLogs } from './oplog.service';

const opLogRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/user/opt/list',
    {
      config: { permission: 'oplog:view' },
      schema: {
        operationId: 'listOpLogs',
        tags: ['system'],
        summary: '操作日志（最新在前）',
        querystring: OpLogListQuery,
        response: { 200: OpLogListResult },
      },
    },
    async (req) => ok(await listOpLogs(ctx, req.query)),
  );
};

export default opLogRoutes;
