/** Notices and the two texts (SPEC.md notice/list, notice/opt, GET/POST protocol). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isProtocolId, ProtocolCodes } from '../../../domain/content';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf, assertCan } from '../../plugins/auth';
import {
  NoticeListQuery,
  NoticeListResult,
  NoticeOptBody,
  NoticeOptResult,
  ProtocolBody,
  ProtocolQuery,
  ProtocolResult,
} from './content.schema';
import { getProtocol, listNotices, noticeOpt, saveProtocol } from './content.service';

const contentRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/notice/list',
    {
      config: { permission: 'notice:view' },
      schema: {
        operationId: 'listNotices',
        tags: ['notice'],
        summary: '公告列表（置顶在前，新的在前）',
        querystring: NoticeListQuery,
        response: { 200: NoticeListResult },
      },
    },
    async (req) => ok(await listNotices(ctx, req.query)),
  );

  app.post(
    '/v1/admin/notice/opt',
    {
      config: { permission: 'notice:opt' },
      schema: {
        operationId: 'noticeOpt',
        tags: ['notice'],
        summary: '公告操作：create（无 id）| update | publish | offline | delete；已发布的公告须先下线才能编辑或删除',
        body: NoticeOptBody,
        response: { 200: NoticeOptResult },
      },
    },
    async (req) => ok(await noticeOpt(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/protocol',
    {
      config: { permission: ['intro:view', 'play:view'] },
      schema: {
        operationId: 'getProtocol',
        tags: ['protocol'],
        summary: '文案（6 平台介绍，8 玩法说明）',
        querystring: ProtocolQuery,
        response: { 200: ProtocolResult },
      },
    },
    async (req) => {
      if (isProtocolId(req.query.id)) assertCan(req, ProtocolCodes[req.query.id].view);
      return ok(await getProtocol(ctx, req.query.id));
    },
  );

  app.post(
    '/v1/admin/protocol',
    {
      config: { permission: ['intro:update', 'play:update'] },
      schema: {
        operationId: 'saveProtocol',
        tags: ['protocol'],
        summary: '保存文案（内容为 HTML，保存前按白名单清理）；带 updatedAt 时，若已被他人修改则拒绝',
        body: ProtocolBody,
        response: { 200: ProtocolResult },
      },
    },
    async (req) => {
      if (isProtocolId(req.body.id)) assertCan(req, ProtocolCodes[req.body.id].update);
      return ok(await saveProtocol(ctx, actorOf(req), req.body));
    },
  );
};

export default contentRoutes;
