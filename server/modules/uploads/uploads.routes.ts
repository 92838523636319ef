/**
 * Uploads (DOMAIN.md §3): `GET oss` gives a ticket; the file's bytes go to its uploadUrl (PUT, the raw
 * bytes as the body, any content type: the type is read from the content). The upload route is public —
 * the ticket is its credential, for one key, once, for ten minutes — like a store's presigned URL.
 * With an S3 store and no S3_PUBLIC_URL, /uploads/… streams the object from the bucket.
 */
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import { UPLOAD_HEADERS } from '../../plugins/security';
import { sendEnvelope } from '../../plugins/errors';
import { Code, Messages } from '../../../domain/codes';
import { OssTicketResult, UploadParams, UploadResult } from './uploads.schema';
import { issueTicket, receiveUpload, UploadMessages } from './uploads.service';
import { storeOf } from './store';
import { badInput } from '../../errors';

const uploadRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/oss',
    {
      config: { auth: 'session' },
      schema: {
        operationId: 'getOssTicket',
        tags: ['oss'],
        summary: '获取图片上传凭证（一次有效，10 分钟内）',
        response: { 200: OssTicketResult },
      },
    },
    async (req) => ok(await issueTicket(ctx, actorOf(req).managerId)),
  );

  // The upload in a context of its own: every body is passed on as its byte stream, unparsed.
  await app.register(async (context) => {
    const raw = context.withTypeProvider<TypeBoxTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    raw.put(
      '/v1/admin/oss/upload/:token',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'uploadImage',
          tags: ['oss'],
          summary: '上传图片（请求体为文件内容；PNG、JPEG、GIF、WebP，按内容识别）',
          params: UploadParams,
          response: { 200: UploadResult },
        },
      },
      async (req) => {
        if (!(req.body instanceof Readable)) throw badInput(UploadMessages.empty);
        const length = req.headers['content-length'];
        return ok(
          await receiveUpload(
            ctx,
            req.params.token,
            req.body,
            req.headers['content-type'],
            length === undefined ? undefined : Number(length),
          ),
        );
      },
    );
  });

  const store = storeOf(ctx.config);
  if (store.kind === 's3') {
    app.get('/uploads/*', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      const found = await store.get(key);
      if (!found) return sendEnvelope(reply, Code.notFound, Messages.apiNotFound);
      for (const [name, value] of Object.entries(UPLOAD_HEADERS)) reply.header(name, value);
      return reply
        .type(found.type)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Length', found.size)
        .send(found.body);
    });
  }
};

export default uploadRoutes;
