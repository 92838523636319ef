/** Matches: the list and a manager's arbitration (complete or cancel). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import { MatchListQuery, MatchListResult, MatchOptBody, MatchOptResult } from './matches.schema';
import { arbitrate, listMatches } from './matches.service';

const matchRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/match/list',
    {
      config: { permission: 'match:view' },
      schema: {
        operationId: 'listMatches',
        tags: ['match'],
        summary: '撮合记录',
        querystring: MatchListQuery,
        response: { 200: MatchListResult },
      },
    },
    async (req) => ok(await listMatches(ctx, req.query)),
  );

  app.post(
    '/v1/admin/match/opt',
    {
      config: { permission: 'match:opt', stepUp: true },
      schema: {
        operationId: 'matchOpt',
        tags: ['match'],
        summary: '撮合仲裁：完成（LZ转给买家）或取消（LZ退回卖家）',
        body: MatchOptBody,
        response: { 200: MatchOptResult },
      },
    },
    async (req) => ok(await arbitrate(ctx, actorOf(req), req.body)),
  );
};

export default matchRoutes;
