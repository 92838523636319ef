/**
 * The members module's public query API: what another module's list needs of members, and the only
 * file of members/ (besides its services) that other modules import (eslint.config.mjs enforces it).
 * - a list keyword (uid, phone prefix, nickname) resolved to the members it stands for
 *   (`keywordMembers`) and the condition narrowing a list to them (`memberIdIn`, `membersMatching`);
 * - the page of a money list joined to the member columns it shows (`readPageWithMembers`), and those
 *   columns as the list's row shows them (`memberColumnsOf`, the schema's `MemberColumns`).
 * Plain functions taking `db` or `trx` first, like a repository.
 */
import {
  sql,
  type AliasedSelectQueryBuilder,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Database } from '../../db/schema';
import { readKeysetPage, type KeysetPageRequest } from '../../db/keyset';
import { given, givenKey, listItems, listValues, ShapedQuery, type Given } from '../../db/shapes';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The [low, high) range of 11-digit phones starting with `digits`: an index range instead of LIKE
 * (SQLite's LIKE is case-insensitive and PostgreSQL's needs a pattern-ops index; neither uses the
 * plain unique index). Digits compare the same in every collation. No high bound after a run of 9s.
 */
export function phonePrefixRange(digits: string): { low: string; high?: string } {
  const next = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  return { low: digits, high: next.length > digits.length ? undefined : next };
}

/**
 * What decides the SQL of a keyword's condition (a ShapedQuery's shape): text (nickname only), or digits
 * (also a phone prefix; `uid` when 8 digits; `open` when the prefix has no high bound).
 */
export type KeywordShape = 'text' | `digits${'' | '-uid'}${'' | '-open'}`;

/** The values a keyword's condition binds: the keyword, and its phone prefix range when digits. */
export interface KeywordValues {
  keyword: string;
  phoneLow?: string;
  phoneHigh?: string;
}

/** A keyword's shape and values (keywordWhere's parts). */
export function keywordParts(keyword: string): { shape: KeywordShape; values: KeywordValues } {
  if (!/^\d{1,11}$/.test(keyword)) return { shape: 'text', values: { keyword } };
  const { low, high } = phonePrefixRange(keyword);
  const shape: KeywordShape = `digits${keyword.length === 8 ? '-uid' : ''}${high === undefined ? '-open' : ''}`;
  return { shape, values: { keyword, phoneLow: low, phoneHigh: high } };
}

/**
 * The keyword of the member and asset lists: uid exactly (8 digits), phone by prefix (digits),
 * nickname exactly. Each branch is indexed, so even a million members answer from the indexes.
 */
export function keywordWhere(eb: ExpressionBuilder<Database, 'member'>, keyword: string) {
  const { shape, values } = keywordParts(keyword);
  return keywordCondition(eb, shape, values);
}

/** keywordWhere by its parts: the structure from `shape`, the values only bound (a ShapedQuery's builder). */
export function keywordCondition(eb: ExpressionBuilder<Database, 'member'>, shape: KeywordShape, v: KeywordValues) {
  const ors = [eb('member.nickname', '=', v.keyword)];
  if (shape !== 'text') {
    if (shape.includes('-uid')) ors.push(eb('member.uid', '=', v.keyword));
    ors.push(
      shape.endsWith('-open')
        ? eb('member.phone', '>=', v.phoneLow!)
        : eb.and([eb('member.phone', '>=', v.phoneLow!), eb('member.phone', '<', v.phoneHigh!)]),
    );
  }
  return eb.or(ors);
}

/** The ids of the members a keyword matches, as a subquery. */
export function membersMatching(db: Db, keyword: string) {
  const { shape, values } = keywordParts(keyword);
  return membersMatchingShape(db, shape, values);
}

/** membersMatching by the keyword's parts (a ShapedQuery's builder). */
function membersMatchingShape(db: Db, shape: KeywordShape, v: KeywordValues) {
  return db
    .selectFrom('member')
    .select('member.id')
    .where((eb) => keywordCondition(eb, shape, v));
}

/** A keyword matching more members than this is kept as a subquery instead of an id list. */
export const KEYWORD_IDS_MAX = 100;

/** The members a list keyword stands for: their ids when few (the usual uid, phone or nickname), else the keyword. */
export type KeywordMembers = number[] | { keyword: string };

/**
 * Resolves a keyword before a list reads its own table, so that list walks its member index by id
 * instead of testing every row against the keyword (an EXISTS per row read all 3,000,000 accounts).
 */
export async function keywordMembers(db: Db, keyword: string): Promise<KeywordMembers> {
  const { shape, values } = keywordParts(keyword);
  const rows = await keywordIds.execute(db, shape, values);
  return rows.length > KEYWORD_IDS_MAX ? { keyword } : rows.map((r) => Number(r.id));
}

/** The first KEYWORD_IDS_MAX + 1 members of a keyword, compiled once per keyword shape (every money list's keyword). */
const keywordIds = new ShapedQuery(
  (shape: KeywordShape) => shape,
  (db, shape, v: KeywordValues) => membersMatchingShape(db as Db, shape, v).limit(KEYWORD_IDS_MAX + 1),
);

/** Whether member `id` is one of those `keyword` matches. */
export async function memberMatches(db: Db, keyword: string, id: number): Promise<boolean> {
  return !!(await membersMatching(db, keyword).where('member.id', '=', id).executeTakeFirst());
}

/**
 * The members a list's `keyword` and `memberId` stand for together (both must hold): undefined when
 * neither is given, `[memberId]` or `[]` when both are, else as `keywordMembers`.
 */
export async function listMembers(db: Db, keyword: string | undefined, memberId: number | undefined) {
  const k = keyword?.trim() || undefined;
  if (k && memberId !== undefined) return (await memberMatches(db, k, memberId)) ? [memberId] : [];
  if (k) return keywordMembers(db, k);
  return memberId === undefined ? undefined : [memberId];
}

/**
 * What of a list's member condition changes its SQL (a ShapedQuery's shape): none, `ids<n>` (n ids), or
 * `kw-<the keyword's shape>` (its subquery).
 */
export type MemberIdShape = 'none' | `ids${number}` | `kw-${KeywordShape}`;

/** The values a member condition binds: the ids as `member_<i>`, or the keyword's values. */
export type MemberIdValues = Partial<KeywordValues> & { [id: `member_${number}`]: number };

/** The shape and values of a list's members (undefined: no member condition). */
export function memberIdParts(members: KeywordMembers | undefined): { shape: MemberIdShape; values: MemberIdValues } {
  if (members === undefined) return { shape: 'none', values: {} };
  if (!Array.isArray(members)) {
    const k = keywordParts(members.keyword);
    return { shape: `kw-${k.shape}`, values: { ...k.values } };
  }
  const values: MemberIdValues = {};
  listValues(values, 'member', members);
  return { shape: `ids${members.length}`, values };
}

/**
 * The condition that narrows a list to a keyword's members on its member id column `col`: `= id`,
 * `in (ids)` (none: nothing matches), or `in (the matching members)` for a keyword of many.
 */
export function memberIdIn(db: Db, col: string, members: KeywordMembers): RawBuilder<SqlBool> {
  const { shape, values } = memberIdParts(members);
  return memberIdCondition(db, col, shape, values)!;
}

/** memberIdIn by its parts (a ShapedQuery's builder); undefined for 'none'. */
export function memberIdCondition(
  db: Db,
  col: string,
  shape: MemberIdShape,
  v: MemberIdValues,
): RawBuilder<SqlBool> | undefined {
  const ref = sql.ref(col);
  if (shape === 'none') return undefined;
  if (shape.startsWith('kw-')) {
    return sql<SqlBool>`${ref} in (${membersMatchingShape(db, shape.slice(3) as KeywordShape, v as KeywordValues)})`;
  }
  const n = Number(shape.slice(3));
  if (n === 1) return sql<SqlBool>`${ref} = ${v.member_0}`;
  const ids = listItems(v, 'member', n);
  return sql<SqlBool>`${ref} in (${sql.join(n ? ids : [-1])})`;
}

/** A money list's filter as a ShapedQuery's shape: which fields are given, and its members' condition. */
export interface ListFilterShape<F> {
  given: Given<Omit<F, 'members'>>;
  members: MemberIdShape;
}

/** The values a money list's filter binds: its fields, and its members' (memberIdParts). */
export type ListFilterValues<F> = Omit<F, 'members'> & MemberIdValues;

/** A money list's filter (`members` resolved from its keyword) as a shape and values. */
export function listFilterParts<F extends { members?: KeywordMembers }>(
  f: F,
): { shape: ListFilterShape<F>; values: ListFilterValues<F> } {
  const { members, ...fields } = f;
  const m = memberIdParts(members);
  // The members' values (member_<i>, keyword, phoneLow, phoneHigh) must not share a name with a field.
  for (const name of Object.keys(m.values)) {
    if (name in fields) throw new Error(`list filter field ${name} clashes with its members' values`);
  }
  return { shape: { given: given(fields), members: m.shape }, values: { ...m.values, ...fields } };
}

export const listFilterKey = (s: ListFilterShape<object>) => `${givenKey(s.given)} ${s.members}`;

/**
 * `readKeysetPage` for the money lists: the slice (aliased `p`, with its `member_id`) joined to the member
 * columns every money list shows (uid, phone, nickname).
 */
export function readPageWithMembers<R extends { id: unknown }>(
  db: Kysely<Database>,
  slice: AliasedSelectQueryBuilder<any, 'p'>,
  page: KeysetPageRequest,
  sort: keyof R & string,
): Promise<{ rows: R[]; next: string | null; prev: string | null }> {
  return readKeysetPage(withMembers<R>(db, slice), page, sort);
}

/** The slice (aliased `p`, with its `member_id`) joined to the member columns every money list shows. */
export function withMembers<R>(db: Db, slice: AliasedSelectQueryBuilder<any, 'p'>) {
  return (db as unknown as Kysely<any>)
    .selectFrom(slice)
    .innerJoin('member as m', 'm.id', 'p.member_id')
    .selectAll('p')
    .select(['m.uid', 'm.phone', 'm.nickname'])
    .$castTo<R>();
}

/** A row read through `readPageWithMembers` → the member columns of its answer (`MemberColumns`). */
export function memberColumnsOf(r: { member_id: unknown; uid: string; phone: string; nickname: string }) {
  return { memberId: Number(r.member_id), uid: r.uid, phone: r.phone, nickname: r.nickname };
}

/** A member's status (domain/members.ts MemberStatus), undefined when there is no such member. */
/** A buyer's status and what his order keeps of him (uid, phone, nickname). */
export function buyerOf(db: Db, id: number) {
  return db.selectFrom('member').select(['status', 'uid', 'phone', 'nickname']).where('id', '=', id).executeTakeFirst();
}

export async function memberStatusOf(db: Db, id: number): Promise<number | undefined> {
  const r = await db.selectFrom('member').select('status').where('id', '=', id).executeTakeFirst();
  return r?.status;
}
