/** All SQL on members, zones and the asset query. Plain functions taking `db` or `trx` first. */
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money, moneySum } from '../../db/sql';

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
 * The keyword of the member and asset lists: uid exactly (8 digits), phone by prefix (digits),
 * nickname exactly. Each branch is indexed, so even a million members answer from the indexes.
 */
function keywordWhere(eb: ExpressionBuilder<Database, 'member'>, keyword: string) {
  const ors = [eb('member.nickname', '=', keyword)];
  if (/^\d{1,11}$/.test(keyword)) {
    if (keyword.length === 8) ors.push(eb('member.uid', '=', keyword));
    const { low, high } = phonePrefixRange(keyword);
    ors.push(
      high === undefined
        ? eb('member.phone', '>=', low)
        : eb.and([eb('member.phone', '>=', low), eb('member.phone', '<', high)]),
    );
  }
  return eb.or(ors);
}

export function membersMatching(db: Db, keyword: string) {
  return db
    .selectFrom('member')
    .select('member.id')
    .where((eb) => keywordWhere(eb, keyword));
}

export interface MemberFilter {
  keyword?: string;
  /** Resolved from inviterUid; -1 matches nothing (unknown inviter). */
  inviterId?: number;
  zoneId?: number;
  level?: number;
  status?: number;
  start?: number;
  end?: number;
}

const MEMBER_SORT = { id: 'member.id', createdAt: 'member.created_at', level: 'member.level' } as const;
export type MemberSort = keyof typeof MEMBER_SORT;

/**
 * True when the filters match few rows through their own indexes (a uid, a nickname, a phone prefix of
 * 3+ digits, an inviter). Then the page must be sorted after the lookup: left to itself the planner
 * may walk the primary key backwards hoping to meet 20 matches early, and read a million rows.
 */
export function selective(f: { keyword?: string; inviterId?: number }): boolean {
  return f.inviterId !== undefined || (f.keyword !== undefined && f.keyword.length >= 3);
}

/** `col` for an index-ordered page; `col + 0` (no index can serve it) after a selective lookup. */
function orderTerm(col: string, afterLookup: boolean) {
  return afterLookup ? sql`${sql.ref(col)} + 0` : sql.ref(col);
}

function filteredMembers(db: Db, f: MemberFilter) {
  let q = db.selectFrom('member');
  if (f.keyword) {
    const keyword = f.keyword;
    q = q.where((eb) => keywordWhere(eb, keyword));
  }
  if (f.inviterId !== undefined) q = q.where('member.inviter_id', '=', f.inviterId);
  if (f.zoneId !== undefined) q = q.where('member.zone_id', '=', f.zoneId);
  if (f.level !== undefined) q = q.where('member.level', '=', f.level);
  if (f.status !== undefined) q = q.where('member.status', '=', f.status);
  if (f.start !== undefined) q = q.where('member.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('member.created_at', '<=', f.end);
  return q;
}

// ---- member counts (member_count: members per zone, level and status) ----

export interface MemberCountKey {
  /** null = no zone (stored as 0). */
  zoneId: number | null;
  level: number;
  status: number;
}

/**
 * Adds `delta` to the members counted under `key`, inside the caller's transaction, after the member
 * row itself was written. A rise is an upsert (the first member of a key makes its row); a fall is an
 * UPDATE (an upsert would CHECK its negative candidate row first), and a missing row or a count that
 * would go negative throws: some path changed members without counting them.
 */
export async function bumpMemberCount(db: Db, key: MemberCountKey, delta: number): Promise<void> {
  const zoneId = key.zoneId ?? 0;
  if (delta >= 0) {
    await db
      .insertInto('member_count')
      .values({ zone_id: zoneId, level: key.level, status: key.status, n: delta })
      .onConflict((oc) =>
        oc.columns(['zone_id', 'level', 'status']).doUpdateSet({ n: sql`member_count.n + excluded.n` }),
      )
      .execute();
    return;
  }
  const r = await db
    .updateTable('member_count')
    .set({ n: sql`n + ${delta}` })
    .where('zone_id', '=', zoneId)
    .where('level', '=', key.level)
    .where('status', '=', key.status)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1)
    throw new Error(`member_count has no row for ${zoneId}/${key.level}/${key.status}`);
}

const keyOrder = (k: MemberCountKey) => [k.zoneId ?? 0, k.level, k.status];

/** A member moved from one key to another: the two upserts in ascending key order (no deadlock). */
export async function moveMemberCount(db: Db, from: MemberCountKey, to: MemberCountKey): Promise<void> {
  const a = keyOrder(from);
  const b = keyOrder(to);
  const cmp = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  if (cmp === 0) return;
  if (cmp < 0) {
    await bumpMemberCount(db, from, -1);
    await bumpMemberCount(db, to, 1);
  } else {
    await bumpMemberCount(db, to, 1);
    await bumpMemberCount(db, from, -1);
  }
}

/** The exact number of members with these zone/level/status (each optional), from member_count. */
export async function countMembersByKey(db: Db, f: { zoneId?: number; level?: number; status?: number }) {
  let q = db.selectFrom('member_count').select((eb) => eb.fn.sum<number | string | null>('n').as('n'));
  if (f.zoneId !== undefined) q = q.where('zone_id', '=', f.zoneId);
  if (f.level !== undefined) q = q.where('level', '=', f.level);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/** Recounts member_count from the member table (bulk loads that write members directly). */
export async function rebuildMemberCounts(db: Db): Promise<void> {
  await db.deleteFrom('member_count').execute();
  await sql`insert into member_count (zone_id, level, status, n)
    select coalesce(zone_id, 0), level, status, count(*) from member
    group by coalesce(zone_id, 0), level, status`.execute(db);
}

/** Rows where member_count differs from the member table (empty when consistent). */
export async function memberCountViolations(db: Db) {
  const r = await sql<{ zone_id: number; level: number; status: number; counted: number; actual: number }>`
    select k.zone_id, k.level, k.status, coalesce(c.n, 0) as counted, coalesce(m.n, 0) as actual
    from (select zone_id, level, status from member_count
          union select coalesce(zone_id, 0), level, status from member) k
    left join member_count c on c.zone_id = k.zone_id and c.level = k.level and c.status = k.status
    left join (select coalesce(zone_id, 0) as zone_id, level, status, count(*) as n from member
               group by coalesce(zone_id, 0), level, status) m
      on m.zone_id = k.zone_id and m.level = k.level and m.status = k.status
    where coalesce(c.n, 0) <> coalesce(m.n, 0)`.execute(db);
  return r.rows.map((x) => ({
    zoneId: Number(x.zone_id),
    level: Number(x.level),
    status: Number(x.status),
    counted: Number(x.counted),
    actual: Number(x.actual),
  }));
}

/** Only these filters can be answered from member_count. */
function countedByKey(f: MemberFilter): boolean {
  return !f.keyword && f.inviterId === undefined && f.start === undefined && f.end === undefined;
}

/**
 * One page of members and the honest total. The page is read alone (ORDER BY an indexed column,
 * then id); inviters, zones and balances are then fetched for those rows only.
 */
export async function findMembers(
  db: Db,
  f: MemberFilter,
  page: { offset: number; limit: number; sort: MemberSort; order: 'asc' | 'desc' },
) {
  const [rows, count] = await Promise.all([
    filteredMembers(db, f)
      .select([
        'member.id',
        'member.uid',
        'member.phone',
        'member.nickname',
        'member.inviter_id',
        'member.zone_id',
        'member.level',
        'member.status',
        'member.real_name_status',
        'member.created_at',
        'member.last_login_at',
      ])
      .orderBy(orderTerm(MEMBER_SORT[page.sort], selective(f)), page.order)
      .orderBy(orderTerm('member.id', selective(f)), page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    countedByKey(f)
      ? countMembersByKey(db, f)
      : filteredMembers(db, f)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((c) => Number(c.n)),
  ]);
  return { rows, total: count };
}

/** Accounts of the given members (the page rows). */
export async function accountsOf(db: Db, memberIds: number[]) {
  if (!memberIds.length) return [];
  return db
    .selectFrom('account')
    .select(['member_id', 'asset', money('available').as('available'), money('frozen').as('frozen')])
    .where('member_id', 'in', memberIds)
    .execute();
}

export async function uidsOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('member').select(['id', 'uid']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.uid]));
}

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

export async function insertMember(
  db: Db,
  v: {
    uid: string;
    phone: string;
    nickname: string;
    passwordHash: string;
    inviterId: number | null;
    zoneId: number | null;
    level: number;
    status: number;
    realNameStatus: number;
    now: number;
  },
): Promise<number> {
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
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await bumpMemberCount(db, { zoneId: v.zoneId, level: v.level, status: v.status }, 1);
  return Number(r.id);
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
    .returning(['id', 'status', 'level', 'zone_id'])
    .executeTakeFirst();
  if (row) {
    const zoneId = row.zone_id == null ? null : Number(row.zone_id);
    await moveMemberCount(db, { zoneId, level: row.level, status: from }, { zoneId, level: row.level, status: to });
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
    .returning(['id', 'status', 'level', 'zone_id'])
    .executeTakeFirst();
  if (row) {
    const zoneId = row.zone_id == null ? null : Number(row.zone_id);
    await moveMemberCount(db, { zoneId, level: from, status: row.status }, { zoneId, level: to, status: row.status });
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
    .returning(['id', 'status', 'level', 'zone_id'])
    .executeTakeFirst();
  if (row) {
    await moveMemberCount(
      db,
      { zoneId: from, level: row.level, status: row.status },
      { zoneId: to, level: row.level, status: row.status },
    );
  }
  return row;
}

export async function setMemberPassword(db: Db, id: number, passwordHash: string) {
  return db
    .updateTable('member')
    .set({ password_hash: passwordHash })
    .where('id', '=', id)
    .returning(['id', 'status', 'level', 'zone_id'])
    .executeTakeFirst();
}

// ---- zones ----

export async function zoneById(db: Db, id: number) {
  return db
    .selectFrom('zone')
    .select(['id', 'name', 'status', 'member_count', 'leader_uid', 'sort'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function zoneNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('zone').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
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
    .values({ name: v.name, leader_uid: v.leaderUid, sort: v.sort, status: 1, created_at: v.now, updated_at: v.now })
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

// ---- asset query ----

export interface AssetFilter {
  keyword?: string;
  asset?: string;
  /** Minimum available + frozen, in minor units of each asset. */
  minTotal?: Record<string, bigint>;
}

const ASSET_SORT = {
  memberId: sql`a.member_id`,
  available: sql`a.available`,
  frozen: sql`a.frozen`,
  total: sql`a.available + a.frozen`,
} as const;
export type AssetSort = keyof typeof ASSET_SORT;

function filteredAccounts(db: Db, f: AssetFilter) {
  let q = db.selectFrom('account as a');
  // The member table is joined only to find the keyword's members (few, by their indexes): the
  // unfiltered count and sums read the accounts alone, and the page's members are fetched apart.
  if (f.keyword) {
    const keyword = f.keyword;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('member')
          .select('member.id')
          .whereRef('member.id', '=', 'a.member_id')
          .where((m) => keywordWhere(m, keyword)),
      ),
    );
  }
  if (f.asset) q = q.where('a.asset', '=', f.asset);
  if (f.minTotal) {
    const min = f.minTotal;
    q = q.where((eb) =>
      eb.or(
        Object.entries(min).map(([asset, v]) =>
          eb.and([eb('a.asset', '=', asset), eb(sql`a.available + a.frozen`, '>=', v)]),
        ),
      ),
    );
  }
  return q;
}

export async function findAccounts(
  db: Db,
  f: AssetFilter,
  page: { offset: number; limit: number; sort: AssetSort; order: 'asc' | 'desc' },
) {
  const [rows, sums] = await Promise.all([
    filteredAccounts(db, f)
      .select([
        'a.member_id',
        'a.asset',
        money('a.available').as('available'),
        money('a.frozen').as('frozen'),
        'a.updated_at',
      ])
      .orderBy(page.sort === 'memberId' ? orderTerm('a.member_id', selective(f)) : ASSET_SORT[page.sort], page.order)
      .orderBy(orderTerm('a.member_id', selective(f)), page.order)
      // USDT, LZ, ENERGY is their domain order and, by luck, reverse alphabetical: with member id
      // descending this reads the primary key backwards, no sort needed for the default page.
      .orderBy('a.asset', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filteredAccounts(db, f)
      .select((eb) => [
        'a.asset',
        eb.fn.countAll<number>().as('n'),
        moneySum('a.available').as('available'),
        moneySum('a.frozen').as('frozen'),
      ])
      .groupBy('a.asset')
      .execute(),
  ]);
  const ids = [...new Set(rows.map((r) => Number(r.member_id)))];
  const members = ids.length
    ? await db.selectFrom('member').select(['id', 'uid', 'phone', 'nickname']).where('id', 'in', ids).execute()
    : [];
  const byId = new Map(members.map((m) => [Number(m.id), m]));
  return {
    rows: rows.map((r) => {
      const m = byId.get(Number(r.member_id));
      return { ...r, uid: m?.uid ?? '', phone: m?.phone ?? '', nickname: m?.nickname ?? '' };
    }),
    sums,
    total: sums.reduce((n, s) => n + Number(s.n), 0),
  };
}
