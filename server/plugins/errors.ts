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

/** The Chinese name of the field an Ajv error is about. */
function fieldLabel(e: AjvError): string {
  if (e.keyword === 'required') {
    const prop = e.params.missingProperty as string;
    return e.parentSchema?.properties?.[prop]?.title ?? prop;
  }
  if (e.keyword === 'additionalProperties') return String(e.params.additionalProperty);
  const title = e.parentSchema?.title;
  if (title) return title;
  const path = e.instancePath.split('/').filter(Boolean);
  return path.length ? path[path.length - 1] : '参数';
}

export function validationMessage(errors: AjvError[]): string {
  // Prefer the error that names a concrete field; anyOf/union errors come with their branches.
  const e = errors.find((x) => !['anyOf', 'oneOf', 'if'].includes(x.keyword)) ?? errors[0];
  if (!e) return '参数错误';
  const label = fieldLabel(e);
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
    if (err.validation) return sendEnvelope(reply, Code.badInput, validationMessage(err.validation));
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendEnvelope(reply, Code.badInput, '请求内容不是有效的JSON');
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendEnvelope(reply, Code.badInput, '请求内容过大');
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendEnvelope(reply, Code.badInput, '不支持的请求格式');
    request.log.error({ err }, 'unexpected error');
    return sendEnvelope(reply, Code.internal, Messages.busy);
  });
});
