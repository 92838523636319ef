/** Pledge modes, records, their export and releases (DOMAIN.md §3 Pledge; SPEC.md pledge/*). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ExportCompression, ExportFileResponse } from '../../export/export';
import { sendExportOf } from '../../export/send';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import {
  PledgeExportQuery,
  PledgeListQuery,
  PledgeListResult,
  PledgeModeBody,
  PledgeModeListResult,
  PledgeModeResult,
  PledgeReleaseListQuery,
  PledgeReleaseListResult,
} from './pledge.schema';
import { listPledgeModes, listPledgeReleases, listPledges, saveMode } from './pledge.service';

const pledgeRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/pledge/list',
    {
      config: { permission: 'pledge:view' },
      schema: {
        operationId: 'listPledges',
        tags: ['pledge'],
        summary: '质押记录（含合计与最近一次结算）',
        querystring: PledgeListQuery,
        response: { 200: PledgeListResult },
      },
    },
    async (req) => ok(await listPledges(ctx, req.query)),
  );

  app.get(
    '/v1/admin/pledge/export',
    {
      config: { permission: 'pledge:export' },
      compress: ExportCompression,
      schema: {
        operationId: 'exportPledges',
        tags: ['pledge'],
        summary: '导出质押记录（与列表相同的筛选，全部行；xlsx 或 format=csv）',
        querystring: PledgeExportQuery,
        response: ExportFileResponse,
      },
    },
    async (req, reply) => {
      const q = req.query;
      return sendExportOf(reply, ctx, 'pledge', q, q.format);
    },
  );

  app.get(
    '/v1/admin/pledge/mode/list',
    {
      config: { permission: 'pledgeMode:view' },
      schema: {
        operationId: 'listPledgeModes',
        tags: ['pledge'],
        summary: '质押模式（按排序、ID；含使用中的记录数）',
        response: { 200: PledgeModeListResult },
      },
    },
    async () => ok(await listPledgeModes(ctx)),
  );

  app.post(
    '/v1/admin/pledge/mode/update',
    {
      config: { permission: 'pledgeMode:update' },
      schema: {
        operationId: 'savePledgeMode',
        tags: ['pledge'],
        summary: '新增（无 id）或编辑质押模式；启用/停用也用它',
        body: PledgeModeBody,
        response: { 200: PledgeModeResult },
      },
    },
    async (req) => ok(await saveMode(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/pledge/release/list',
    {
      config: { permission: 'pledge:view' },
      schema: {
        operationId: 'listPledgeReleases',
        tags: ['pledge'],
        summary: '质押释放明细（按日期倒序）',
        querystring: PledgeReleaseListQuery,
        response: { 200: PledgeReleaseListResult },
      },
    },
    async (req) => ok(await listPledgeReleases(ctx, req.query)),
  );
};

export default pledgeRoutes;
