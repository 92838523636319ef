/** The contract: OpenAPI 3 at /openapi.json and Swagger UI at /docs. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

export const openApiInfo = {
  title: '后台管理控制台 API',
  description:
    'Every JSON response is `{ code, msg, data }` with HTTP 200 (DOMAIN.md §1). The token from login goes raw in `Authorization`. Codes: 200 ok, 301 not logged in, 302 session ended elsewhere, 400 bad input, 403 no permission, 404 not found, 409 state conflict, 429 too many attempts, 500 unexpected.',
  version: '1.0.0',
};

export default fp(async function swaggerPlugin(app: FastifyInstance, opts: { ui?: boolean }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: openApiInfo,
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
      security: [{ token: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  if (opts.ui !== false) await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
