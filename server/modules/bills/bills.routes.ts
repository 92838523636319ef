/** Bills (billLayout) and energy changes (changeLayout): read-only views of the ledger's bills. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { BillListResult, BillQuery, BillTypesResult, ChangeListBody } from './bills.schema';
import { billTypes, listBills } from './bills.service';

const billRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/bill/types',
    {
      config: { permission: ['bill:view', 'change:view'] },
      schema: {
        operationId: 'getBillTypes',
        tags: ['bill'],
        summary: '账单类型',
        response: { 200: BillTypesResult },
      },
    },
    async () => ok(billTypes()),
  );

  app.get(
    '/v1/admin/bill',
    {
      config: { permission: 'bill:view' },
      schema: {
        operationId: 'listBills',
        tags: ['bill'],
        summary: '账单（按会员筛选时总数封顶 10,000：超过时 totalCapped=true，sum 为 null）',
        querystring: BillQuery,
        response: { 200: BillListResult },
      },
    },
    async (req) => ok(await listBills(ctx, req.query)),
  );

  app.post(
    '/v1/admin/change/list',
    {
      config: { permission: 'change:view' },
      schema: {
        operationId: 'listEnergyChanges',
        tags: ['bill'],
        summary: '能量变动（ENERGY 账单，筛选同账单，参数在请求体）',
        body: ChangeListBody,
        response: { 200: BillListResult },
      },
    },
    async (req) => ok(await listBills(ctx, { ...req.body, asset: 'ENERGY' })),
  );
};

export default billRoutes;
