/**
 * What every route refuses before its schema is even looked at, so no route can forget it: control
 * characters in any text of the body, query or path (PostgreSQL cannot store NUL: without this an
 * unlogged-in login with "a\u0000" was a 500), and a JSON number where the schema wants a decimal
 * string (money would go through a float). The 400 names the field by its schema `title`.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../domain/codes';
import { CONTROL_CHARS, LINE_BREAKS } from '../../domain/formats';
import { AppError } from '../errors';
import { DECIMAL_FORMAT, MULTILINE } from './schemas';

type Node = Record<string, any> | undefined;

/** Deeper than any schema goes: what lies below is refused by validation, not walked. */
const MAX_DEPTH = 16;
/** The name of a field whose schema has no title. */
const UNNAMED = '参数';

/** The schema and, for a union, its branches. */
const branchesOf = (node: Node): Record<string, any>[] =>
  node ? [node, ...((node.anyOf ?? node.oneOf ?? node.allOf ?? []) as Record<string, any>[])] : [];

const titleOf = (node: Node): string | undefined =>
  branchesOf(node).find((b) => typeof b.title === 'string' && b.title)?.title;

function propertyOf(node: Node, key: string): Node {
  for (const b of branchesOf(node)) {
    const p = b.properties?.[key];
    if (p) return p;
    if (b.additionalProperties && typeof b.additionalProperties === 'object') return b.additionalProperties;
  }
  return undefined;
}

function itemsOf(node: Node, index: number): Node {
  for (const b of branchesOf(node)) {
    if (Array.isArray(b.items)) return b.items[index];
    if (b.items) return b.items;
  }
  return undefined;
}

const allowsLineBreaks = (node: Node) => branchesOf(node).some((b) => b[MULTILINE] === true);

/** A number and nothing else: a string there is coerced by validation. */
const wantsNumber = (node: Node) => {
  const branches = branchesOf(node);
  return (
    branches.some((b) => b.type === 'integer' || b.type === 'number') && !branches.some((b) => b.type === 'string')
  );
};

/** A decimal string and nothing a JSON number could be: `12.5` must arrive as "12.5". */
const wantsDecimalString = (node: Node) => {
  const branches = branchesOf(node);
  return (
    branches.some((b) => b.format === DECIMAL_FORMAT) &&
    !branches.some((b) => b.type === 'number' || b.type === 'integer')
  );
};

/** The message refusing `value` (or something inside it), or null when it may go on to validation. */
export function refusalOf(value: unknown, node: Node, label: string, inBody: boolean, depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const name = titleOf(node) ?? label;
  if (typeof value === 'string') {
    if (CONTROL_CHARS.test(value) || (LINE_BREAKS.test(value) && !allowsLineBreaks(node))) {
      return `${name}不能包含控制字符`;
    }
    // Ajv coerces "Infinity" (or "1e999") to Infinity for an integer and then lets it past every
    // bound: the database refused it with a 500.
    if (wantsNumber(node) && Math.abs(Number(value)) === Infinity) return `${name}格式不正确`;
    return null;
  }
  if (typeof value === 'number') {
    return inBody && wantsDecimalString(node) ? `${name}须以字符串提交（如"12.5"），不能是数字` : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const r = refusalOf(value[i], itemsOf(node, i), name, inBody, depth + 1);
      if (r) return r;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (CONTROL_CHARS.test(key) || LINE_BREAKS.test(key)) return `${UNNAMED}名不能包含控制字符`;
      const r = refusalOf(v, propertyOf(node, key), UNNAMED, inBody, depth + 1);
      if (r) return r;
    }
  }
  return null;
}

/** Checks the request's body, query and path parameters against its route's schemas. */
export function checkRequest(request: FastifyRequest): void {
  const schema = (request.routeOptions.schema ?? {}) as Record<string, Node>;
  const msg =
    refusalOf(request.params, schema.params, UNNAMED, false) ??
    refusalOf(request.query, schema.querystring ?? schema.query, UNNAMED, false) ??
    // A raw upload's body is its byte stream (uploads.routes.ts), checked by content there.
    (request.body instanceof Readable ? null : refusalOf(request.body, schema.body, UNNAMED, true));
  if (msg) throw new AppError(Code.badInput, msg);
}

export default fp(async function inputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => checkRequest(request));
});
