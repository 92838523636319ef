/**
 * Member counts, kept in the writing transaction (server/db/counters.ts): member_count holds the members
 * per zone, level and status, member_phone_count the same per first three phone digits, member_day_stat
 * the members created per day, so the member
 * list's total of those filters is a few rows read. The writes of members.repository.ts move them.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounters } from '../../db/counterAudit';
import { CounterMoves } from '../../db/counterMoves';
import { counter, moveCounter } from '../../db/counters';
import { dayOf } from '../../db/dayBuckets';

type Db = Kysely<Database> | Transaction<Database>;

export interface MemberCountKey {
  /** null = no zone (stored as 0). */
  zoneId: number | null;
  level: number;
  status: number;
  /** The member's phone: its first three digits key member_phone_count. */
  phone: string;
}

/** Members per zone, level and status; member_phone_count: the same per first three phone digits. */
const MEMBER_COUNT = counter({
  table: 'member_count',
  source: 'member',
  keys: ['zone_id', 'level', 'status'],
  keyOf: { zone_id: 'coalesce(zone_id, 0)' },
  sums: {},
});
const MEMBER_PHONE_COUNT = counter({
  table: 'member_phone_count',
  source: 'member',
  keys: ['phone3', 'zone_id', 'level', 'status'],
  keyOf: { phone3: 'substr(phone, 1, 3)', zone_id: 'coalesce(zone_id, 0)' },
  sums: {},
});

/** Members created per Asia/Shanghai day (the statistics page's new members); keyed by created_at. */
export const MEMBER_DAY_STAT = counter({
  table: 'member_day_stat',
  source: 'member',
  keys: ['day'],
  keyOf: { day: '(created_at + 28800000) / 86400000' },
  sums: {},
});

const countKey = (k: MemberCountKey) => ({ zone_id: k.zoneId ?? 0, level: k.level, status: k.status });
const phoneCountKey = (k: MemberCountKey) => ({ phone3: k.phone.slice(0, 3), ...countKey(k) });

/**
 * Counts new members under their keys (member_count, then member_phone_count), inside the caller's
 * transaction, after the member rows themselves were written. Each table's rows are taken in ascending
 * key order, as every writer takes them, so two batches at once cannot deadlock.
 */
export async function countNewMembers(
  db: Db,
  keys: ReadonlyArray<
    MemberCountKey & { /** epoch ms: its Asia/Shanghai day keys member_day_stat */ createdAt: number }
  >,
): Promise<void> {
  const counts = new CounterMoves(); // merges the members of one key into one upsert
  for (const key of keys) {
    counts.move(db, MEMBER_COUNT, null, countKey(key), {});
    counts.move(db, MEMBER_PHONE_COUNT, null, phoneCountKey(key), {});
    counts.move(db, MEMBER_DAY_STAT, null, { day: dayOf(key.createdAt) }, {});
  }
  await counts.apply();
}

/**
 * A member moved from one key to another (same phone): member_count, then member_phone_count, each
 * taking its two rows in ascending key order (moveCounter), so two opposite moves cannot deadlock.
 */
export async function moveMemberCount(db: Db, from: MemberCountKey, to: MemberCountKey): Promise<void> {
  const a = countKey(from);
  const b = countKey(to);
  if (a.zone_id === b.zone_id && a.level === b.level && a.status === b.status) return;
  await moveCounter(db, MEMBER_COUNT, a, b, {});
  await moveCounter(db, MEMBER_PHONE_COUNT, phoneCountKey(from), phoneCountKey(to), {});
}

export interface KeyFilter {
  zoneId?: number;
  level?: number;
  status?: number;
}

/** Sum of `n` over member_count rows with these zone/level/status (each optional). */
export function keyCountQuery(db: Db, f: KeyFilter) {
  let q = db.selectFrom('member_count').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'));
  if (f.zoneId !== undefined) q = q.where('zone_id', '=', f.zoneId);
  if (f.level !== undefined) q = q.where('level', '=', f.level);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  return q;
}

/** The exact number of members with these zone/level/status (each optional), from member_count. */
export async function countMembersByKey(db: Db, f: KeyFilter) {
  const r = await keyCountQuery(db, f).executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/**
 * Sum of `n` over member_phone_count: members whose phone is in the range of a 1–3 digit prefix
 * (phonePrefixRange), with zone/level/status.
 */
export function phonePrefixCountQuery(db: Db, { low, high }: { low: string; high?: string }, f: KeyFilter) {
  let q = db
    .selectFrom('member_phone_count')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('phone3', '>=', low);
  if (high !== undefined) q = q.where('phone3', '<', high);
  if (f.zoneId !== undefined) q = q.where('zone_id', '=', f.zoneId);
  if (f.level !== undefined) q = q.where('level', '=', f.level);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  return q;
}

/** Recounts member_count and member_phone_count from the member table (bulk loads that write members directly). */
export async function rebuildMemberCounts(db: Db): Promise<void> {
  await rebuildCounters(db, [MEMBER_COUNT, MEMBER_PHONE_COUNT, MEMBER_DAY_STAT]);
}

/** Keys where member_count or member_phone_count differs from the member table (empty when consistent). */
export async function memberCountViolations(db: Db) {
  return [
    ...(await counterViolations(db, MEMBER_COUNT)),
    ...(await counterViolations(db, MEMBER_PHONE_COUNT)),
    ...(await counterViolations(db, MEMBER_DAY_STAT)),
  ];
}
