/** Bills (billLayout) and energy changes (changeLayout): read-only views of the ledger's bills. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import { ok, type Static } from '../../http/schemas';
import { BillListResult, BillQuery, BillTypesResult, ChangeListBody } from './bills.schema';
import { billTypes, listBills } from './bills.service';

export default async function billRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
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
    async (req) => ok(await listBills(ctx, req.query as Static<typeof BillQuery>)),
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
    async (req) => ok(await listBills(ctx, { ...(req.body as Static<typeof ChangeListBody>), asset: 'ENERGY' })),
  );
}
