/** All SQL on zones. */
import { sql, type Kysely, type Transaction } from 'kysely';
import { ZoneStatus } from '../../../domain/members';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export async function zoneById(db: Db, id: number) {
  return db
    .selectFrom('zone')
    .select(['id', 'name', 'status', 'member_count', 'leader_uid', 'sort'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function changeZoneCount(db: Db, id: number, delta: number, now: number) {
  await db
    .updateTable('zone')
    .set({ member_count: sql`member_count + ${delta}`, updated_at: now })
    .where('id', '=', id)
    .execute();
}

const ZONE_SORT = {
  sort: 'zone.sort',
  id: 'zone.id',
  memberCount: 'zone.member_count',
  createdAt: 'zone.created_at',
} as const;
export type ZoneSort = keyof typeof ZONE_SORT;

/** Zones are few (tens): a contains-match on the name is fine here. */
export async function findZones(
  db: Db,
  f: { name?: string; status?: number },
  page: { offset: number; limit: number; sort: ZoneSort; order: 'asc' | 'desc' },
) {
  let q = db.selectFrom('zone');
  if (f.name)
    q = q.where(sql`zone.name`, 'like', sql`${`%${f.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
  if (f.status !== undefined) q = q.where('zone.status', '=', f.status);
  const [rows, count] = await Promise.all([
    q
      .leftJoin('member as leader', 'leader.uid', 'zone.leader_uid')
      .select([
        'zone.id',
        'zone.name',
        'zone.leader_uid',
        'leader.nickname as leader_nickname',
        'zone.member_count',
        'zone.status',
        'zone.sort',
        'zone.created_at',
        'zone.updated_at',
      ])
      // Not keysetSlice: by 排序 its ties read by id ascending whatever the order (a few tens of rows,
      // never paged by cursor); the page still comes from pageOf, within its offset cap.
      .orderBy(sql.ref(ZONE_SORT[page.sort]), page.order)
      .orderBy('zone.id', page.sort === 'sort' ? 'asc' : page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function zoneNameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('zone').select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function insertZone(db: Db, v: { name: string; leaderUid: string | null; sort: number; now: number }) {
  const r = await db
    .insertInto('zone')
    .values({
      name: v.name,
      leader_uid: v.leaderUid,
      sort: v.sort,
      status: ZoneStatus.is.enabled,
      created_at: v.now,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateZone(
  db: Db,
  id: number,
  v: { name?: string; leaderUid?: string | null; sort?: number; now: number },
) {
  const set: Record<string, unknown> = { updated_at: v.now };
  if (v.name !== undefined) set.name = v.name;
  if (v.leaderUid !== undefined) set.leader_uid = v.leaderUid;
  if (v.sort !== undefined) set.sort = v.sort;
  const r = await db.updateTable('zone').set(set).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function moveZoneStatus(db: Db, id: number, from: number, to: number, now: number) {
  const r = await db
    .updateTable('zone')
    .set({ status: to, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes a zone only while no member is in it (the count and the members themselves). */
export async function deleteEmptyZone(db: Db, id: number) {
  const r = await db
    .deleteFrom('zone')
    .where('id', '=', id)
    .where('member_count', '=', 0)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('member').select('member.id').where('member.zone_id', '=', id))))
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
