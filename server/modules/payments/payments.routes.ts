/** Payment methods (DOMAIN.md §3 Members): list, review and export. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ExportCompression, ExportFileResponse } from '../../export/export';
import { sendExportOf } from '../../export/send';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import {
  PaymentExportQuery,
  PaymentListQuery,
  PaymentListResult,
  PaymentOptBody,
  PaymentOptResult,
} from './payments.schema';
import { listPaymentMethods, paymentOpt } from './payments.service';

const paymentRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/payment/list',
    {
      config: { permission: 'payment:view' },
      schema: {
        operationId: 'listPaymentMethods',
        tags: ['payment'],
        summary: '会员收款方式',
        querystring: PaymentListQuery,
        response: { 200: PaymentListResult },
      },
    },
    async (req) => ok(await listPaymentMethods(ctx, req.query)),
  );

  app.post(
    '/v1/admin/payment/opt',
    {
      config: { permission: 'payment:opt', stepUp: true },
      schema: {
        operationId: 'paymentOpt',
        tags: ['payment'],
        summary: '审核通过、驳回、禁用或启用收款方式',
        body: PaymentOptBody,
        response: { 200: PaymentOptResult },
      },
    },
    async (req) => ok(await paymentOpt(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/payment/export',
    {
      config: { permission: 'payment:export' },
      compress: ExportCompression,
      schema: {
        operationId: 'exportPaymentMethods',
        tags: ['payment'],
        summary: '导出收款方式（与列表相同的筛选，全部行；xlsx 或 format=csv）',
        querystring: PaymentExportQuery,
        response: ExportFileResponse,
      },
    },
    async (req, reply) => {
      const q = req.query;
      return sendExportOf(reply, ctx, 'payment', q, q.format);
    },
  );
};

export default paymentRoutes;
