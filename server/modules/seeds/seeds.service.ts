/**
 * Seeds (DOMAIN.md §3 Bills and energy): the read-only lists for managers (seed/list with the last
 * settlement run, seed/release/list) and the member-side grant (a mall purchase, a manager's gift, an
 * activity reward). A seed releases floor(total / days) ENERGY on each of the days after it was
 * granted and the rest on its end day (domain/economy.ts seedTerms); the settlement job pays the
 * releases (server/modules/settlement, counting them through seeds.query.ts).
 */
import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { SeedListQuery, SeedReleaseListQuery } from './seeds.schema';
import { seedTerms } from '../../../domain/economy';
import { AssetCeiling, formatAsset } from '../../../domain/money';
import { SEED_MAX_DAYS, SeedSource, type SeedSource as Source, type SeedStatus as Status } from '../../../domain/seeds';
import type { Ctx } from '../../context';
import { countedTransaction, CounterMoves } from '../../db/counterMoves';
import { dateOfDay, dayOf } from '../../db/dayBuckets';
import { pageOf } from '../../db/keyset';
import type { Database } from '../../db/schema';
import { badInput } from '../../errors';
import { parseRange } from '../../range';
import { keywordMembers, memberColumnsOf, type KeywordMembers } from '../members/members.query';
import { lastRun } from '../settlement/settlement.query';
import { findSeedReleases, findSeeds, insertSeed, memberExists } from './seeds.repository';

export const SeedMessages = {
  memberMissing: '会员不存在',
  nameRequired: '种子名称不能为空',
  nameTooLong: '种子名称最多40个字',
  badSource: '种子来源不正确',
  badEnergy: '种子总能量必须大于0',
  energyTooLarge: `种子总能量不能超过${formatAsset(AssetCeiling.ENERGY, 'ENERGY')}`,
  badDays: `种子周期必须为1到${SEED_MAX_DAYS}天`,
} as const;

/** The members a list's keyword and memberId stand for (both: the member only if the keyword matches it). */
async function membersOf(ctx: Ctx, keyword: string | undefined, memberId: number | undefined) {
  const k = keyword?.trim();
  const byKeyword: KeywordMembers | undefined = k ? await keywordMembers(ctx.db, k) : undefined;
  if (memberId === undefined) return byKeyword;
  if (byKeyword && Array.isArray(byKeyword) && !byKeyword.includes(memberId)) return [];
  return [memberId];
}

export type SeedListInput = Static<typeof SeedListQuery>;

export async function listSeeds(ctx: Ctx, q: SeedListInput) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  const [found, run] = await Promise.all([
    findSeeds(
      ctx.db,
      { members: await membersOf(ctx, q.keyword, q.memberId), source: q.source, status: q.status, start, end },
      { offset, limit: size, order: q.order ?? 'desc', keyset },
    ),
    lastRun(ctx.db, ctx.clock.now()),
  ]);
  return {
    list: found.rows.map((r) => ({
      id: Number(r.id),
      ...memberColumnsOf(r),
      name: r.name,
      source: r.source as Source,
      refId: r.ref_id == null ? null : Number(r.ref_id),
      totalEnergy: formatAsset(r.total_energy, 'ENERGY'),
      dailyEnergy: formatAsset(r.daily_energy, 'ENERGY'),
      released: formatAsset(r.released, 'ENERGY'),
      days: Number(r.days),
      startDay: dateOfDay(Number(r.start_day)),
      endDay: dateOfDay(Number(r.end_day)),
      paidDay: dateOfDay(Number(r.paid_day)),
      status: r.status as Status,
      createdAt: Number(r.created_at),
      finishedAt: r.finished_at == null ? null : Number(r.finished_at),
    })),
    total: found.total,
    page,
    size,
    next: found.next,
    prev: found.prev,
    sum: {
      totalEnergy: formatAsset(found.sumTotal, 'ENERGY'),
      released: formatAsset(found.sumReleased, 'ENERGY'),
      count: found.total,
    },
    lastRun: run,
  };
}

export type SeedReleaseListInput = Static<typeof SeedReleaseListQuery>;

export async function listSeedReleases(ctx: Ctx, q: SeedReleaseListInput) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  const found = await findSeedReleases(
    ctx.db,
    {
      seedId: q.seedId,
      members: await membersOf(ctx, q.keyword, q.memberId),
      fromDay: start === undefined ? undefined : dayOf(start),
      toDay: end === undefined ? undefined : dayOf(end),
    },
    { offset, limit: size, order: q.order ?? 'desc', keyset },
  );
  return {
    list: found.rows.map((r) => ({
      id: Number(r.id),
      seedId: Number(r.seed_id),
      ...memberColumnsOf(r),
      day: dateOfDay(Number(r.day)),
      amount: formatAsset(r.amount, 'ENERGY'),
      createdAt: Number(r.created_at),
    })),
    total: found.total,
    page,
    size,
    next: found.next,
    prev: found.prev,
    sum: { amount: formatAsset(found.sumAmount, 'ENERGY'), count: found.total },
  };
}

// ---- member side ----

export interface GrantSeedInput {
  memberId: number;
  name: string;
  /** 1 商城购买, 2 后台赠送, 3 活动奖励 */
  source: number;
  /** The order id of a mall purchase. */
  refId?: number | null;
  /** ENERGY minor units. */
  totalEnergy: bigint;
  days: number;
}

function checked(input: GrantSeedInput) {
  const name = input.name.trim();
  if (!name) throw badInput(SeedMessages.nameRequired);
  if ([...name].length > 40) throw badInput(SeedMessages.nameTooLong);
  if (!SeedSource.values.includes(input.source as Source)) throw badInput(SeedMessages.badSource);
  if (input.totalEnergy <= 0n) throw badInput(SeedMessages.badEnergy);
  if (input.totalEnergy > AssetCeiling.ENERGY) throw badInput(SeedMessages.energyTooLarge);
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > SEED_MAX_DAYS)
    throw badInput(SeedMessages.badDays);
  return name;
}

/**
 * Grants a seed inside the caller's transaction (the mall's purchase): growing from today (Asia/Shanghai),
 * releasing from tomorrow. Its seed_stat count is queued on `counts` when given (the caller applies it
 * last), else moved at once.
 */
export async function grantSeedIn(
  trx: Transaction<Database> | Kysely<Database>,
  input: GrantSeedInput,
  now: number,
  counts?: CounterMoves,
): Promise<{ id: number }> {
  const name = checked(input);
  if (!(await memberExists(trx, input.memberId))) throw badInput(SeedMessages.memberMissing);
  const own = counts ?? new CounterMoves();
  const id = await insertSeed(trx, own, {
    memberId: input.memberId,
    name,
    source: input.source,
    refId: input.refId ?? null,
    totalEnergy: input.totalEnergy,
    dailyEnergy: seedTerms(input.totalEnergy, input.days).daily,
    days: input.days,
    startDay: dayOf(now),
    now,
  });
  if (!counts) await own.apply();
  return { id };
}

/** Member side: grants a seed in a transaction of its own (or the given one). */
export async function grantSeed(
  ctxOrTrx: Ctx | Transaction<Database> | Kysely<Database>,
  input: GrantSeedInput,
  now?: number,
): Promise<{ id: number }> {
  if ('clock' in ctxOrTrx) {
    const ctx = ctxOrTrx;
    const at = now ?? ctx.clock.now();
    return countedTransaction(ctx.db, (trx, counts) => grantSeedIn(trx, input, at, counts));
  }
  return grantSeedIn(ctxOrTrx, input, now ?? Date.now());
}
