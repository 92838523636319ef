/**
 * The envelope for everything that is not a success: AppError with its code, validation errors as
 * 400 naming the field in Chinese, everything else as 500 with the detail in the log only.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { Code, Messages } from '../../domain/codes';
import { AppError } from '../errors';

/** Sends an envelope as a string so the route's success schema does not reshape it. */
export function sendEnvelope(reply: FastifyReply, code: number, msg: string, data: unknown = null) {
  return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify({ code, msg, data }));
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, any>;
  parentSchema?: Record<string, any>;
  schema?: unknown;
  message?: string;
}

type SchemaNode = Record<string, any> | undefined;

/** The schemas a node may continue in: itself and, for a union, its branches. */
const branchesOf = (node: Record<string, any>): Record<string, any>[] => [
  node,
  ...((node.anyOf ?? node.oneOf ?? node.allOf ?? []) as Record<string, any>[]),
];

/**
 * The title of the deepest schema along `path` in the route's schema that has one. Walking from the
 * root rather than reading the failing schema's own title is what names a field whose error comes
 * from inside it: a branch of a union (`order`: asc | desc) or an item of an array (`ids/3`).
 */
export function titleAlong(root: SchemaNode, path: string[]): string | undefined {
  let node = root;
  let title: string | undefined;
  for (const seg of path) {
    let next: SchemaNode;
    for (const b of node ? branchesOf(node) : []) {
      next =
        b.properties?.[seg] ?? (/^\d+$/.test(seg) ? (Array.isArray(b.items) ? b.items[+seg] : b.items) : undefined);
      if (next) break;
    }
    if (!next) break;
    node = next;
    if (typeof node.title === 'string' && node.title) title = node.title;
  }
  return title;
}

const pathOf = (e: AjvError) =>
  e.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** The Chinese name of the field an Ajv error is about, never its English key. */
function fieldLabel(e: AjvError, root: SchemaNode): string {
  if (e.keyword === 'additionalProperties') return String(e.params.additionalProperty);
  const path = pathOf(e);
  if (e.keyword === 'required') path.push(String(e.params.missingProperty));
  const title = titleAlong(root, path);
  if (title) return title;
  if (e.keyword === 'required') return e.parentSchema?.properties?.[e.params.missingProperty]?.title ?? '参数';
  return e.parentSchema?.title ?? '参数';
}

/** `root`: the route's schema of the part that failed (body, querystring…), to name the field. */
export function validationMessage(errors: AjvError[], root?: SchemaNode): string {
  // Prefer the error that names a concrete field; anyOf/union errors come with their branches.
  const e = errors.find((x) => !['anyOf', 'oneOf', 'if'].includes(x.keyword)) ?? errors[0];
  if (!e) return '参数错误';
  const label = fieldLabel(e, root);
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `${label}不能为空`;
    case 'type':
      return `${label}格式不正确`;
    case 'minLength':
      return p.limit === 1 ? `${label}不能为空` : `${label}长度不能少于${p.limit}个字符`;
    case 'maxLength':
      return `${label}长度不能超过${p.limit}个字符`;
    case 'minimum':
      return `${label}不能小于${p.limit}`;
    case 'maximum':
      return `${label}不能大于${p.limit}`;
    case 'exclusiveMinimum':
      return `${label}必须大于${p.limit}`;
    case 'minItems':
      return p.limit === 1 ? `${label}不能为空` : `${label}至少需要${p.limit}项`;
    case 'maxItems':
      return `${label}最多${p.limit}项`;
    case 'enum':
    case 'const':
      return `${label}取值无效`;
    case 'additionalProperties':
      return `不支持的参数：${label}`;
    case 'pattern':
    case 'format':
    default:
      return `${label}格式不正确`;
  }
}

export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validation?: AjvError[] }, request, reply) => {
    if (err instanceof AppError) return sendEnvelope(reply, err.code, err.message);
    if (err.validation) {
      const schema = request.routeOptions.schema as Record<string, SchemaNode> | undefined;
      const part = err.validationContext;
      const root = part ? (schema?.[part] ?? (part === 'querystring' ? schema?.query : undefined)) : undefined;
      return sendEnvelope(reply, Code.badInput, validationMessage(err.validation, root));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendEnvelope(reply, Code.badInput, '请求内容不是有效的JSON');
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendEnvelope(reply, Code.badInput, '请求内容过大');
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendEnvelope(reply, Code.badInput, '不支持的请求格式');
    // A client error raised by a plugin rather than by our code (@fastify/send's 403 for a directory
    // or a `..`, 412/416 for a conditional or range request): the request's fault, not the server's.
    const status = (err as { status?: unknown }).status ?? err.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500 && !String(err.code ?? '').startsWith('FST_')) {
      request.log.info({ status, reason: err.message }, 'client error from a plugin');
      if (status === 403 || status === 404) return reply.callNotFound();
      return reply.code(status).send();
    }
    request.log.error({ err }, 'unexpected error');
    return sendEnvelope(reply, Code.internal, Messages.busy);
  });
});
