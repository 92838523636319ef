import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import { ok, type Static } from '../../http/schemas';
import { OpLogListQuery, OpLogListResult } from './oplog.schema';
import { listOpLogs } from './oplog.service';

export default async function opLogRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
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
    async (req) => ok(await listOpLogs(ctx, req.query as Static<typeof OpLogListQuery>)),
  );
}
