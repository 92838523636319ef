/** Deposits (DOMAIN.md §3 Deposits): records, settings and receiving addresses. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ExportCompression, ExportFileResponse } from '../../export/export';
import { sendExportOf } from '../../export/send';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import { depositAccountOpt, listDepositAccounts } from './accounts.service';
import {
  DepositAccountListQuery,
  DepositAccountListResult,
  DepositAccountOptBody,
  DepositAccountOptResult,
  DepositExportQuery,
  DepositListQuery,
  DepositListResult,
  DepositOptBody,
  DepositOptResult,
  DepositSettingBody,
  DepositSettingResult,
} from './deposits.schema';
import { depositOpt, getDepositSetting, listDeposits, saveDepositSetting } from './deposits.service';

const depositRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/deposit/list',
    {
      config: { permission: 'deposit:view' },
      schema: {
        operationId: 'listDeposits',
        tags: ['deposit'],
        summary: '充值记录',
        querystring: DepositListQuery,
        response: { 200: DepositListResult },
      },
    },
    async (req) => ok(await listDeposits(ctx, req.query)),
  );

  app.get(
    '/v1/admin/deposit/export',
    {
      config: { permission: 'deposit:export' },
      compress: ExportCompression,
      schema: {
        operationId: 'exportDeposits',
        tags: ['deposit'],
        summary: '导出充值记录（与列表相同的筛选，全部行；xlsx 或 format=csv）',
        querystring: DepositExportQuery,
        response: ExportFileResponse,
      },
    },
    async (req, reply) => sendExportOf(reply, ctx, 'deposit', req.query, req.query.format),
  );

  app.post(
    '/v1/admin/deposit/opt',
    {
      config: { permission: 'deposit:audit', stepUp: true },
      schema: {
        operationId: 'depositOpt',
        tags: ['deposit'],
        summary: '确认到账或驳回充值',
        body: DepositOptBody,
        response: { 200: DepositOptResult },
      },
    },
    async (req) => ok(await depositOpt(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/deposit/setting',
    {
      config: { permission: 'depositSetting:update' },
      schema: {
        operationId: 'getDepositSetting',
        tags: ['deposit'],
        summary: '充值设置',
        response: { 200: DepositSettingResult },
      },
    },
    async () => ok(await getDepositSetting(ctx)),
  );

  app.post(
    '/v1/admin/deposit/setting',
    {
      config: { permission: 'depositSetting:update', stepUp: true },
      schema: {
        operationId: 'saveDepositSetting',
        tags: ['deposit'],
        summary: '保存充值设置',
        body: DepositSettingBody,
        response: { 200: DepositSettingResult },
      },
    },
    async (req) => ok(await saveDepositSetting(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/deposit/account/list',
    {
      config: { permission: 'depositAccount:view' },
      schema: {
        operationId: 'listDepositAccounts',
        tags: ['deposit'],
        summary: '收款地址',
        querystring: DepositAccountListQuery,
        response: { 200: DepositAccountListResult },
      },
    },
    async (req) => ok(await listDepositAccounts(ctx, req.query)),
  );

  app.post(
    '/v1/admin/deposit/account/opt',
    {
      config: { permission: 'depositAccount:opt', stepUp: true },
      schema: {
        operationId: 'depositAccountOpt',
        tags: ['deposit'],
        summary: '新增、编辑、启用、停用、删除收款地址',
        body: DepositAccountOptBody,
        response: { 200: DepositAccountOptResult },
      },
    },
    async (req) => ok(await depositAccountOpt(ctx, actorOf(req), req.body)),
  );
};

export default depositRoutes;
