/** Transfers between members (DOMAIN.md §3 Members): read-only list with sums. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { TransferListQuery, TransferListResult } from './transfers.schema';
import { listTransfers } from './transfers.service';

const transferRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/transfer/list',
    {
      config: { permission: 'transfer:view' },
      schema: {
        operationId: 'listTransfers',
        tags: ['transfer'],
        summary: '会员转账记录（只读）',
        querystring: TransferListQuery,
        response: { 200: TransferListResult },
      },
    },
    async (req) => ok(await listTransfers(ctx, req.query)),
  );
};

export default transferRoutes;
