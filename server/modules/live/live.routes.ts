/**
 * GET /v1/admin/events: the live channel, a server-sent event stream (text/event-stream) for any
 * signed-in manager. `ready` says changes are watched from now on (the console refetches what it
 * loaded before, once); `change` events carry a LiveChange (topics to refetch, new requests); a `session`
 * event says the session is over (the console then asks once more and lands on the login page). Not
 * an EventSource: the console reads it with fetch, so the token travels in Authorization as on every
 * call (docs/decisions.md, the live channel).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIVE_KEEPALIVE_MS, type LiveChange } from '../../../domain/live';
import type { Ctx } from '../../context';
import { liveFeedOf } from './live.feed';

const liveRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  const feed = liveFeedOf(ctx);
  app.addHook('preClose', async () => feed.shutdown());

  app.get(
    '/v1/admin/events',
    {
      config: { auth: 'session' },
      exposeHeadRoute: false, // a HEAD would subscribe and never end
      schema: {
        operationId: 'liveEvents',
        tags: ['live'],
        summary: '实时通道：数据变化与新申请（text/event-stream，不是 JSON 信封）',
        hide: true,
      },
    },
    (req, reply) => {
      const manager = req.manager!;
      reply.hijack();
      const res = reply.raw;
      // The console may have gone while the session was looked up: its 'close' has fired already.
      if (req.raw.destroyed || res.destroyed || res.socket?.destroyed) {
        res.destroy();
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-accel-buffering': 'no', // nginx: pass each event at once
      });
      res.write('retry: 3000\n\n');
      let open = true;
      const write = (text: string) => {
        if (open) res.write(text);
      };
      const keepalive = setInterval(() => write(': keepalive\n\n'), LIVE_KEEPALIVE_MS);
      const finish = () => {
        if (!open) return;
        open = false;
        clearInterval(keepalive);
        unsubscribe();
        res.end();
      };
      const unsubscribe = feed.subscribe({
        sessionId: Number(manager.sessionId),
        permVersion: manager.permVersion,
        codes: manager.codes,
        send: (change: LiveChange) => write(`event: change\ndata: ${JSON.stringify(change)}\n\n`),
        ready: () => write('event: ready\ndata: {}\n\n'),
        expire: () => {
          write('event: session\ndata: {}\n\n');
          finish();
        },
        close: finish,
      });
      req.raw.on('close', finish);
      res.on('close', finish);
    },
  );
};

export default liveRoutes;
