/** All SQL that reads one member or writes members; each write moves its counts (counts.repository.ts). */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { countNewMembers, moveMemberCount } from './counts.repository';

type Db = Kysely<Database> | Transaction<Database>;

export async function memberByUid(db: Db, uid: string) {
  return db.selectFrom('member').select(['id', 'uid', 'nickname']).where('uid', '=', uid).executeTakeFirst();
}

export async function memberById(db: Db, id: number) {
  return db
    .selectFrom('member')
    .select(['id', 'uid', 'phone', 'nickname', 'zone_id', 'level', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function phoneTaken(db: Db, phone: string): Promise<boolean> {
  return !!(await db.selectFrom('member').select('id').where('phone', '=', phone).executeTakeFirst());
}

export async function uidTaken(db: Db, uid: string): Promise<boolean> {
  return !!(await db.selectFrom('member').select('id').where('uid', '=', uid).executeTakeFirst());
}

/** A member row as written: every field already checked (createMembers in members.service.ts). */
export interface MemberRow {
  uid: string;
  phone: string;
  nickname: string;
  passwordHash: string;
  inviterId: number | null;
  zoneId: number | null;
  level: number;
  status: number;
  realNameStatus: number;
  createdAt: number;
}

/**
 * Inserts members one statement each (their ids in the rows' order), then counts them (member_count,
 * member_phone_count) as the last writes: the count moves with the insert, so no caller can skip it.
 */
export async function insertMembers(db: Db, rows: readonly MemberRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (const v of rows) {
    const r = await db
      .insertInto('member')
      .values({
        uid: v.uid,
        phone: v.phone,
        nickname: v.nickname,
        password_hash: v.passwordHash,
        inviter_id: v.inviterId,
        zone_id: v.zoneId,
        level: v.level,
        status: v.status,
        real_name_status: v.realNameStatus,
        created_at: v.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(r.id));
  }
  await countNewMembers(
    db,
    rows.map((v) => ({ zoneId: v.zoneId, level: v.level, status: v.status, phone: v.phone, createdAt: v.createdAt })),
  );
  return ids;
}

/**
 * One conditional UPDATE of a member's status from exactly `from` to `to`, then its count moved; the
 * row after the move, or undefined (the member is not in `from`). The other two keys come from the
 * updated row itself, so the count moves exactly even if they changed meanwhile.
 */
export async function moveMemberStatus(db: Db, id: number, from: number, to: number) {
  const row = await db
    .updateTable('member')
    .set({ status: to })
    .where('id', '=', id)
    .where('status', '=', from)
    .returning(['id', 'status', 'level', 'zone_id', 'phone'])
    .executeTakeFirst();
  if (row) {
    const zoneId = row.zone_id == null ? null : Number(row.zone_id);
    const phone = row.phone;
    await moveMemberCount(
      db,
      { zoneId, level: row.level, status: from, phone },
      { zoneId, level: row.level, status: to, phone },
    );
  }
  return row;
}

/** Moves a member's level from exactly `from` to `to` (and its count); undefined when not at `from`. */
export async function setMemberLevel(db: Db, id: number, from: number, to: number) {
  const row = await db
    .updateTable('member')
    .set({ level: to })
    .where('id', '=', id)
    .where('level', '=', from)
    .returning(['id', 'status', 'level', 'zone_id', 'phone'])
    .executeTakeFirst();
  if (row) {
    const zoneId = row.zone_id == null ? null : Number(row.zone_id);
    const phone = row.phone;
    await moveMemberCount(
      db,
      { zoneId, level: from, status: row.status, phone },
      { zoneId, level: to, status: row.status, phone },
    );
  }
  return row;
}

/** Moves a member from zone `from` (null = none) to `to`; nothing when the member moved meanwhile. */
export async function setMemberZone(db: Db, id: number, from: number | null, to: number) {
  const row = await db
    .updateTable('member')
    .set({ zone_id: to })
    .where('id', '=', id)
    .where((eb) => (from === null ? eb('zone_id', 'is', null) : eb('zone_id', '=', from)))
    .returning(['id', 'status', 'level', 'zone_id', 'phone'])
    .executeTakeFirst();
  if (row) {
    await moveMemberCount(
      db,
      { zoneId: from, level: row.level, status: row.status, phone: row.phone },
      { zoneId: to, level: row.level, status: row.status, phone: row.phone },
    );
  }
  return row;
}

export async function setMemberPassword(db: Db, id: number, passwordHash: string) {
  return db
    .updateTable('member')
    .set({ password_hash: passwordHash })
    .where('id', '=', id)
    .returning(['id', 'status', 'level', 'zone_id', 'phone'])
    .executeTakeFirst();
}
