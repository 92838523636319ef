/**
 * Schema building blocks shared by every route. `title` on a property is its Chinese name: the
 * validation formatter uses it to name the field in a 400 message.
 */
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { CURSOR_PATTERN } from '../db/keyset';

/** The success envelope of DOMAIN.md §1 around `data`. */
export const Ok = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.Integer({ examples: [200] }), msg: Type.String(), data });

export const OkNull = Ok(Type.Null());

export function ok<T>(data: T): { code: 200; msg: string; data: T } {
  return { code: 200, msg: 'ok', data };
}

/** `{ list, total, page, size }` of a paged list. */
export const PageOf = <T extends TSchema, E extends Record<string, TSchema> = {}>(item: T, extra?: E) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer({ description: 'rows matching the filters' }),
    page: Type.Integer(),
    size: Type.Integer(),
    ...(extra ?? ({} as E)),
  });

/** Query fields every list takes. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000, default: 1, title: '页码' })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, title: '每页条数' })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { title: '排序方向' })),
};

/** Keyset paging (server/db/keyset.ts): the `next` or `prev` of the page on screen. */
export const CursorQuery = {
  after: Type.Optional(
    Type.String({
      pattern: CURSOR_PATTERN,
      title: '翻页位置',
      description: 'the `next` of the page on screen: the page after it, found by index (any depth)',
    }),
  ),
  before: Type.Optional(
    Type.String({
      pattern: CURSOR_PATTERN,
      title: '翻页位置',
      description: 'the `prev` of the page on screen: the page before it',
    }),
  ),
};

/** What a keyset-paged list answers beside `list`: cursors of its last and first rows (null when empty). */
export const CursorResult = {
  next: Type.Union([Type.String(), Type.Null()], { description: 'send as `after` for the next page' }),
  prev: Type.Union([Type.String(), Type.Null()], { description: 'send as `before` for the previous page' }),
};

/** Date range filters: ISO dates or epoch ms, read in Asia/Shanghai (see ../time.ts). */
export const RangeQuery = {
  start: Type.Optional(Type.String({ maxLength: 30, title: '开始时间' })),
  end: Type.Optional(Type.String({ maxLength: 30, title: '结束时间' })),
};

/** A string enum that documents its values and validates them. */
export const StringEnum = <T extends string[]>(values: [...T], opts: { title?: string; description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: values, ...opts });

/** An integer enum (status codes and the like). */
export const IntEnum = <T extends number[]>(values: [...T], opts: { title?: string; description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'integer', enum: values, ...opts });

/** A decimal-string amount on the wire; the service parses it with the asset's decimals. */
export const MoneyString = (title: string) =>
  Type.String({ title, maxLength: 40, pattern: '^[+-]?\\d+(\\.\\d+)?$', examples: ['12.5'] });

export const IdParam = (title = 'ID') => Type.Integer({ minimum: 1, title });

export type { Static };
