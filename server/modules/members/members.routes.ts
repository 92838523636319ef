/**
 * Members (DOMAIN.md §3 Members): the member routes, then this module's zone and asset query routes
 * (zones.routes.ts, assets.routes.ts), in that order. member/opt serves two permission codes: the
 * route admits either (any of) and the service checks the precise one for the action (member:adjust
 * for adjust, member:opt for the rest), as withdrawals do.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf, assertCan } from '../../plugins/auth';
import assetRoutes from './assets.routes';
import { memberOpt } from './memberOpt.service';
import {
  MemberCreateBody,
  MemberCreateResult,
  MemberListQuery,
  MemberListResult,
  MemberOptBody,
  MemberOptResult,
} from './members.schema';
import { createMemberByManager, listMembers } from './members.service';
import zoneRoutes from './zones.routes';

const memberRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/member/list',
    {
      config: { permission: 'member:view' },
      schema: {
        operationId: 'listMembers',
        tags: ['member'],
        summary: '会员列表（含本页会员的余额）',
        querystring: MemberListQuery,
        response: { 200: MemberListResult },
      },
    },
    async (req) => ok(await listMembers(ctx, req.query)),
  );

  app.post(
    '/v1/admin/member/create',
    {
      config: { permission: 'member:create' },
      schema: {
        operationId: 'createMember',
        tags: ['member'],
        summary: '新增会员',
        body: MemberCreateBody,
        response: { 200: MemberCreateResult },
      },
    },
    async (req) => ok(await createMemberByManager(ctx, actorOf(req), req.body)),
  );

  app.post(
    '/v1/admin/member/opt',
    {
      config: { permission: ['member:opt', 'member:adjust'], stepUp: true },
      schema: {
        operationId: 'memberOpt',
        tags: ['member'],
        summary: '会员操作：冻结、解冻、禁止提现、等级、专区、重置密码、调整余额',
        body: MemberOptBody,
        response: { 200: MemberOptResult },
      },
    },
    async (req) => ok(await memberOpt(ctx, actorOf(req), req.body, (code) => assertCan(req, code))),
  );

  await zoneRoutes(app, { ctx });
  await assetRoutes(app, { ctx });
};

export default memberRoutes;
