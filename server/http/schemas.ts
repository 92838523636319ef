/**
 * Schema building blocks shared by every route. `title` on a property is its Chinese name: the
 * validation formatter uses it to name the field in a 400 message.
 */
import { Type, type SchemaOptions, type TSchema, type TUnsafe, type Static } from '@sinclair/typebox';
import { Assets } from '../../domain/assets';
import { Chains } from '../../domain/deposits';
import { IMAGE_URL_PATTERN } from '../../domain/formats';
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

/**
 * `T` or null, spelt as OpenAPI 3.0 spells it (the contract is 3.0.3): `{ type: …, nullable: true }`, not
 * `anyOf: [T, { type: 'null' }]`. fast-json-stringify serialises an anyOf by running an Ajv validator per
 * branch on every value (four per member row of a page); a nullable type takes its plain `=== null` test.
 * An enum lists null too (OpenAPI 3.0.3: `nullable` does not widen an enum, and Ajv checks it).
 * `T` must have a single `type` (a union has none) and no `$id` (a copy would repeat it): it throws at start.
 */
export const Nullable = <T extends TSchema>(t: T, opts: SchemaOptions = {}): TUnsafe<Static<T> | null> => {
  if (typeof t.type !== 'string') throw new Error('Nullable: the schema needs a single type');
  if (t.$id !== undefined) throw new Error('Nullable: a schema with an $id would be copied with it');
  // A plain copy: TypeBox's own marks (symbols) stay with the original.
  const plain = JSON.parse(JSON.stringify(t)) as Record<string, unknown>;
  if (Array.isArray(plain.enum)) plain.enum = [...(plain.enum as unknown[]), null];
  return Type.Unsafe<Static<T> | null>({ ...plain, ...opts, nullable: true });
};
export const NullableInt = Nullable(Type.Integer());
export const NullableString = Nullable(Type.String());

/**
 * The member columns every list of a member's records shows, spread into its row schema; filled from a
 * row read through `readPageWithMembers` by `memberColumnsOf` (server/modules/members/members.query.ts).
 */
export const MemberColumns = {
  memberId: Type.Integer(),
  uid: Type.String(),
  phone: Type.String(),
  nickname: Type.String(),
};

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
      description:
        'the `prev` of the page on screen: the page before it; a cursor with id 0 (`0_0`) names no row and gives the last page',
    }),
  ),
};

/** What a keyset-paged list answers beside `list`: cursors of its last and first rows (null when empty). */
export const CursorResult = {
  next: Nullable(Type.String(), { description: 'send as `after` for the next page' }),
  prev: Nullable(Type.String(), { description: 'send as `before` for the previous page' }),
};

/** Date range filters: ISO dates or epoch ms, read in Asia/Shanghai (see ../time.ts). */
export const RangeQuery = {
  start: Type.Optional(Type.String({ maxLength: 30, title: '开始时间' })),
  end: Type.Optional(Type.String({ maxLength: 30, title: '结束时间' })),
};

/** A string enum that documents its values and validates them. */
export const StringEnum = <T extends string[]>(values: [...T], opts: { title?: string; description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: values, ...opts });

/** An asset of domain/assets.ts (`title`: the field's Chinese name, 资产 or 币种). */
export const AssetSchema = (title: string) => StringEnum([...Assets], { title, description: 'USDT, LZ or ENERGY' });

/** A chain of domain/deposits.ts. */
export const ChainEnum = StringEnum([...Chains], { title: '链', description: 'TRC20 or ERC20' });

/** An integer enum (status codes and the like). */
export const IntEnum = <T extends number[]>(values: [...T], opts: { title?: string; description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'integer', enum: values, ...opts });

/** The schema of an enum of domain/ (`defineEnum`): its values, title and "0 待审核, 1 …" description. */
export const EnumSchema = <V extends number>(
  e: { title: string; description: string; values: V[] },
  opts: { title?: string; description?: string } = {},
) => IntEnum([...e.values], { title: e.title, description: e.description, ...opts });

/**
 * `format: 'decimal'` marks a number that must arrive as a string: a JSON number would go through a
 * float (12345678901.234567 becomes …234568), so server/http/inputGuard.ts refuses one in a body
 * before validation could coerce it.
 */
export const DECIMAL_FORMAT = 'decimal';

/** A decimal-string amount on the wire; the service parses it with the asset's decimals and ceiling. */
export const MoneyString = (title: string) =>
  Type.String({
    title,
    maxLength: 40,
    pattern: '^[+-]?\\d+(\\.\\d+)?$',
    format: DECIMAL_FORMAT,
    examples: ['12.5'],
  });

/** A decimal string that is not an amount (a rate): as MoneyString, never a JSON number. */
export const DecimalString = (title: string, opts: { maxLength?: number; description?: string } = {}) =>
  Type.String({
    title,
    maxLength: opts.maxLength ?? 20,
    pattern: '^[+-]?\\d+(\\.\\d+)?$',
    format: DECIMAL_FORMAT,
    ...(opts.description ? { description: opts.description } : {}),
  });

/** The annotation that lets a text field take TAB, LF and CR (see inputGuard.ts); no other field does. */
export const MULTILINE = 'x-multiline';

/** Multi-line text (remarks, tips): line breaks and tabs allowed, other control characters not. */
export const MultilineText = (title: string, maxLength: number, opts: { description?: string } = {}) =>
  Type.String({ title, maxLength, [MULTILINE]: true, ...opts });

/**
 * Ids are BIGINT (bigserial) columns: bounded to what a JSON number holds exactly, so 2^63 and beyond
 * is a 400 naming the field, never a database error.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The largest value of an INTEGER (int4) column, for numbers stored in one (versions, permission ids). */
export const MAX_INT4 = 2 ** 31 - 1;

export const IdParam = (title = 'ID') => Type.Integer({ minimum: 1, maximum: MAX_ID, title });

/** An image URL: http(s) or this server's /uploads, never `javascript:` (domain/formats.ts). */
export const ImageUrl = (title: string, maxLength = 500) =>
  Type.String({ title, maxLength, pattern: IMAGE_URL_PATTERN, description: 'http(s) URL or /uploads/… ("" for none)' });

/**
 * A transaction hash before its chain is known: hex digits with or without 0x ("" for none). The
 * service checks the exact form of the record's chain (domain/deposits.ts ChainTxHashPattern).
 */
export const TxHash = (title: string, description?: string) =>
  Type.String({
    title,
    maxLength: 100,
    pattern: '^ *(?:0[xX])?[0-9a-fA-F]* *$',
    ...(description ? { description } : {}),
  });

export type { Static };
