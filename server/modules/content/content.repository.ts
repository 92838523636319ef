/**
 * All SQL on notices and the two texts. Notices are written by hand (hundreds, not millions): the list
 * pages by offset and counts with count(*) over the status index. A state change is one conditional
 * UPDATE per allowed source state, so two managers racing get one success and one refusal.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { likePrefix } from '../../db/sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface NoticeRow {
  id: number;
  title: string;
  content: string;
  pinned: number;
  status: number;
  published_at: number | null;
  created_at: number;
  updated_at: number;
  updated_by: string;
}

export interface NoticeFilter {
  keyword?: string;
  status?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: NoticeFilter) {
  let q = db.selectFrom('notice');
  if (f.keyword) q = q.where(sql<boolean>`title like ${`%${likePrefix(f.keyword)}`} escape '\\'`);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.start !== undefined) q = q.where('created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('created_at', '<=', f.end);
  return q;
}

/** A page of notices, pinned first, newest first, with the number of notices matching. */
export async function listNotices(db: Db, f: NoticeFilter, offset: number, size: number) {
  const [rows, count] = await Promise.all([
    filtered(db, f).selectAll().orderBy('pinned', 'desc').orderBy('id', 'desc').limit(size).offset(offset).execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as NoticeRow[], total: Number(count.n) };
}

export async function findNotice(db: Db, id: number): Promise<NoticeRow | undefined> {
  return (await db.selectFrom('notice').selectAll().where('id', '=', id).executeTakeFirst()) as NoticeRow | undefined;
}

export interface NoticeValues {
  title: string;
  content: string;
  pinned: boolean;
}

export async function insertNotice(db: Db, v: NoticeValues, by: string, now: number): Promise<number> {
  const r = await db
    .insertInto('notice')
    .values({
      title: v.title,
      content: v.content,
      pinned: v.pinned ? 1 : 0,
      status: 0,
      created_at: now,
      updated_at: now,
      updated_by: by.slice(0, 64),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/**
 * Rewrites a notice that is in `from` (not published) and, with `expected`, still the version the editor
 * loaded; false when it is not (or is gone).
 */
export async function updateNotice(
  db: Db,
  id: number,
  from: number,
  v: NoticeValues,
  by: string,
  now: number,
  expected?: number,
) {
  let q = db
    .updateTable('notice')
    .set({ title: v.title, content: v.content, pinned: v.pinned ? 1 : 0, updated_at: now, updated_by: by.slice(0, 64) })
    .where('id', '=', id)
    .where('status', '=', from);
  if (expected !== undefined) q = q.where('updated_at', '=', expected);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Moves a notice from `from` to `to` (publishing stamps the publish time); false when it was not in `from`. */
export async function moveNotice(db: Db, id: number, from: number, to: number, by: string, now: number) {
  const r = await db
    .updateTable('notice')
    .set({
      status: to,
      updated_at: now,
      updated_by: by.slice(0, 64),
      ...(to === 1 ? { published_at: now } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes a notice that is in `from`; false when it was not. */
export async function deleteNotice(db: Db, id: number, from: number) {
  const r = await db.deleteFrom('notice').where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export interface ProtocolRow {
  id: number;
  title: string;
  content: string;
  updated_at: number;
  updated_by: string;
}

export async function findProtocol(db: Db, id: number): Promise<ProtocolRow | undefined> {
  return (await db.selectFrom('protocol').selectAll().where('id', '=', id).executeTakeFirst()) as
    ProtocolRow | undefined;
}

/**
 * Writes a text. With `expected` (the updated_at the editor loaded; null = it had never been saved) the
 * write happens only if the row is still that version; false when another save came first.
 */
export async function saveProtocol(db: Db, row: ProtocolRow, expected: number | null | undefined): Promise<boolean> {
  if (expected === undefined) {
    await db
      .insertInto('protocol')
      .values(row)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          title: row.title,
          content: row.content,
          updated_at: row.updated_at,
          updated_by: row.updated_by,
        }),
      )
      .execute();
    return true;
  }
  if (expected === null) {
    const r = await db
      .insertInto('protocol')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }
  const r = await db
    .updateTable('protocol')
    .set({ title: row.title, content: row.content, updated_at: row.updated_at, updated_by: row.updated_by })
    .where('id', '=', row.id)
    .where('updated_at', '=', expected)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Notices per status (the page's chips), from the status index. */
export async function noticeCounts(db: Db): Promise<Record<number, number>> {
  const rows = await db
    .selectFrom('notice')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [Number(r.status), Number(r.n)]));
}
