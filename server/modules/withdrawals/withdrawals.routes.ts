/**
 * Withdrawals (type 1 提现) and extracts (type 2 提取) share these routes. A route serving both pages
 * declares every code either page could use (any of); the service checks the precise code for the
 * record's type with assertCan.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WithdrawActionCodes, WithdrawCodes } from '../../../domain/withdrawals';
import type { Ctx } from '../../context';
import { ExportCompression, ExportFileResponse } from '../../export/export';
import { sendExportOf } from '../../export/send';
import { ok } from '../../http/schemas';
import { actorOf, assertCan } from '../../plugins/auth';
import {
  WithdrawAccountBody,
  WithdrawBatchBody,
  WithdrawBatchResult,
  WithdrawExportQuery,
  WithdrawListQuery,
  WithdrawListResult,
  WithdrawOptBody,
  WithdrawOptResult,
  WithdrawSettingBody,
  WithdrawSettingQuery,
  WithdrawSettingResult,
} from './withdrawals.schema';
import { listWithdrawals, withdrawBatch, withdrawOpt } from './withdrawals.service';
import { getWithdrawSetting, saveWithdrawAccount, saveWithdrawSetting } from './withdrawSettings.service';

const withdrawRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/withdraw/list',
    {
      config: { permission: ['withdraw:view', 'extract:view'] },
      schema: {
        operationId: 'listWithdrawals',
        tags: ['withdraw'],
        summary: '提现（type=1）或提取（type=2）记录',
        querystring: WithdrawListQuery,
        response: { 200: WithdrawListResult },
      },
    },
    async (req) => {
      const q = req.query;
      assertCan(req, WithdrawCodes[q.type].view);
      return ok(await listWithdrawals(ctx, q));
    },
  );

  app.get(
    '/v1/admin/withdraw/export',
    {
      config: { permission: Object.values(WithdrawCodes).map((c) => c.export) },
      compress: ExportCompression,
      schema: {
        operationId: 'exportWithdrawals',
        tags: ['withdraw'],
        summary: '导出提现（type=1）或提取（type=2）记录（与列表相同的筛选，全部行；xlsx 或 format=csv）',
        querystring: WithdrawExportQuery,
        response: ExportFileResponse,
      },
    },
    async (req, reply) => {
      const q = req.query;
      assertCan(req, WithdrawCodes[q.type].export);
      return sendExportOf(reply, ctx, 'withdraw', q, q.format);
    },
  );

  app.post(
    '/v1/admin/withdraw/opt',
    {
      config: { permission: WithdrawActionCodes, stepUp: true },
      schema: {
        operationId: 'withdrawOpt',
        tags: ['withdraw'],
        summary: '审核通过、确认打款或驳回一条提现/提取',
        body: WithdrawOptBody,
        response: { 200: WithdrawOptResult },
      },
    },
    async (req) => ok(await withdrawOpt(ctx, actorOf(req), req.body, (code) => assertCan(req, code))),
  );

  app.post(
    '/v1/admin/withdraw/opt/batch',
    {
      config: { permission: WithdrawActionCodes, stepUp: true },
      schema: {
        operationId: 'withdrawBatch',
        tags: ['withdraw'],
        summary: '批量操作提现/提取（每条单独处理，逐条返回结果）',
        body: WithdrawBatchBody,
        response: { 200: WithdrawBatchResult },
      },
    },
    async (req) => ok(await withdrawBatch(ctx, actorOf(req), req.body, (code) => assertCan(req, code))),
  );

  app.get(
    '/v1/admin/withdraw/setting',
    {
      config: { permission: 'withdrawSetting:view' },
      schema: {
        operationId: 'getWithdrawSetting',
        tags: ['withdraw'],
        summary: '提现/提取设置（含出款钱包）',
        querystring: WithdrawSettingQuery,
        response: { 200: WithdrawSettingResult },
      },
    },
    async (req) => ok(await getWithdrawSetting(ctx, req.query.type)),
  );

  app.post(
    '/v1/admin/withdraw/setting',
    {
      config: { permission: 'withdrawSetting:update', stepUp: true },
      schema: {
        operationId: 'saveWithdrawSetting',
        tags: ['withdraw'],
        summary: '保存提现/提取设置',
        body: WithdrawSettingBody,
        response: { 200: WithdrawSettingResult },
      },
    },
    async (req) => ok(await saveWithdrawSetting(ctx, actorOf(req), req.body)),
  );

  app.post(
    '/v1/admin/withdraw/account',
    {
      config: { permission: 'withdrawSetting:update', stepUp: true },
      schema: {
        operationId: 'saveWithdrawAccount',
        tags: ['withdraw'],
        summary: '保存提现/提取出款钱包',
        body: WithdrawAccountBody,
        response: { 200: WithdrawSettingResult },
      },
    },
    async (req) => ok(await saveWithdrawAccount(ctx, actorOf(req), req.body)),
  );
};

export default withdrawRoutes;
