/**
 * Members, zones and the asset query (DOMAIN.md §3 Members). member/opt serves two permission codes:
 * the route admits either (any of) and the service checks the precise one for the action
 * (member:adjust for adjust, member:opt for the rest), as withdrawals do.
 */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import { ok, type Static } from '../../http/schemas';
import { actorOf, assertCan } from '../../plugins/auth';
import {
  MemberCreateBody,
  MemberCreateResult,
  MemberListQuery,
  MemberListResult,
  MemberOptBody,
  MemberOptResult,
  QueryListQuery,
  QueryListResult,
  ZoneListQuery,
  ZoneListResult,
  ZoneOptBody,
  ZoneOptResult,
} from './members.schema';
import { createMemberByManager, listAssets, listMembers, listZones, memberOpt, zoneOpt } from './members.service';

export default async function memberRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
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
    async (req) => ok(await listMembers(ctx, req.query as Static<typeof MemberListQuery>)),
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
    async (req) => ok(await createMemberByManager(ctx, actorOf(req), req.body as Static<typeof MemberCreateBody>)),
  );

  app.post(
    '/v1/admin/member/opt',
    {
      config: { permission: ['member:opt', 'member:adjust'] },
      schema: {
        operationId: 'memberOpt',
        tags: ['member'],
        summary: '会员操作：冻结、解冻、禁止提现、等级、专区、重置密码、调整余额',
        body: MemberOptBody,
        response: { 200: MemberOptResult },
      },
    },
    async (req) =>
      ok(await memberOpt(ctx, actorOf(req), req.body as Static<typeof MemberOptBody>, (code) => assertCan(req, code))),
  );

  app.get(
    '/v1/admin/zone/list',
    {
      config: { permission: 'zone:view' },
      schema: {
        operationId: 'listZones',
        tags: ['zone'],
        summary: '专区列表',
        querystring: ZoneListQuery,
        response: { 200: ZoneListResult },
      },
    },
    async (req) => ok(await listZones(ctx, req.query as Static<typeof ZoneListQuery>)),
  );

  app.post(
    '/v1/admin/zone/opt',
    {
      config: { permission: 'zone:opt' },
      schema: {
        operationId: 'zoneOpt',
        tags: ['zone'],
        summary: '专区操作：新增、修改、启用、停用、删除',
        body: ZoneOptBody,
        response: { 200: ZoneOptResult },
      },
    },
    async (req) => ok(await zoneOpt(ctx, actorOf(req), req.body as Static<typeof ZoneOptBody>)),
  );

  app.get(
    '/v1/admin/query/list',
    {
      config: { permission: 'query:view' },
      schema: {
        operationId: 'listAssets',
        tags: ['query'],
        summary: '资产查询：每个会员每个币种一行，sum 为筛选结果按币种合计',
        querystring: QueryListQuery,
        response: { 200: QueryListResult },
      },
    },
    async (req) => ok(await listAssets(ctx, req.query as Static<typeof QueryListQuery>)),
  );
}
