/**
 * Pledges (DOMAIN.md §3 Pledge): the modes a member may pledge LZ at (list, create and edit with an
 * op-log row; a mode in use can be disabled, never deleted), the records (their export in
 * pledge.export.ts) and daily releases, and the member-side `pledge` (pledge.member.ts: LZ out of
 * available into the record, bill 质押锁定). The daily releases are paid by the settlement job
 * (server/modules/settlement), which moves this module's counters through pledge.query.ts.
 */
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { PledgeListQuery, PledgeModeBody, PledgeReleaseListQuery } from './pledge.schema';
import { ratePercent, rateText } from '../../../domain/economy';
import { formatAsset, moneyReasonText, parseMinor, RATE_DECIMALS } from '../../../domain/money';
import { PLEDGE_MAX_RATE, PledgeMessages, PledgeModeStatus } from '../../../domain/pledge';
import type { Actor, Ctx } from '../../context';
import { dateOfDay, dayOf } from '../../db/dayBuckets';
import { isUniqueViolation } from '../../db/dialect';
import { pageOf } from '../../db/keyset';
import type { Database } from '../../db/schema';
import { badInput, notFound } from '../../errors';
import { amountOf } from '../../http/amounts';
import { parseRange } from '../../range';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { listMembers, memberColumnsOf } from '../members/members.query';
import { changed, changeList, managerAction } from '../oplog/managerAction';
import { lastRun } from '../settlement/settlement.query';
import {
  findMode,
  insertMode,
  listModes as readModes,
  modeNamed,
  updateMode,
  type ModeRow,
  type ModeValues,
} from './modes.repository';
import { findPledges, findReleases, type PledgeFilter, type PledgeRow } from './pledge.repository';

type ModeStatus = 0 | 1;
type Status = 1 | 2;

// ---- modes ----

function modeView(r: ModeRow & { in_use?: number | string }) {
  return {
    id: Number(r.id),
    name: r.name,
    days: Number(r.days),
    rate: rateText(r.rate),
    minAmount: formatAsset(r.min_amount, 'LZ'),
    maxAmount: formatAsset(r.max_amount, 'LZ'),
    status: Number(r.status) as ModeStatus,
    sort: Number(r.sort),
    inUse: Number(r.in_use ?? 0),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}
export type PledgeModeView = ReturnType<typeof modeView>;

export async function listPledgeModes(ctx: Ctx) {
  return { list: (await readModes(ctx.db)).map(modeView) };
}

/** A daily rate "0.0123" → 12300, refused (400 naming the field) unless 0 < r ≤ 0.05 with ≤ 6 decimals. */
export function modeRateOf(text: string): bigint {
  const r = parseMinor(String(text ?? ''), RATE_DECIMALS);
  if (!r.ok) throw badInput(`日收益率${r.reason === 'range' ? '超出允许范围' : moneyReasonText[r.reason]}`);
  if (r.value > PLEDGE_MAX_RATE) throw badInput(PledgeMessages.rateTooHigh);
  return r.value;
}

export type PledgeModeInput = Static<typeof PledgeModeBody>;

function modeValuesOf(input: PledgeModeInput, old?: ModeRow): ModeValues {
  const name = input.name.trim();
  if (!name) throw badInput(PledgeMessages.nameRequired);
  const rate = modeRateOf(input.rate);
  const minAmount = amountOf(input.minAmount, 'LZ', '最低金额');
  const maxAmount = amountOf(input.maxAmount, 'LZ', '最高金额');
  if (maxAmount < minAmount) throw badInput(PledgeMessages.maxBelowMin);
  return {
    name,
    days: input.days,
    rate,
    minAmount,
    maxAmount,
    status: input.status ?? (old ? Number(old.status) : PledgeModeStatus.is.enabled),
    sort: input.sort ?? (old ? Number(old.sort) : 0),
  };
}

const termsText = (v: ModeValues) =>
  `日收益率 ${ratePercent(rateText(v.rate))}，${v.days}天，最低 ${formatAsset(v.minAmount, 'LZ')}，最高 ${formatAsset(v.maxAmount, 'LZ')}`;

/**
 * pledge/mode/update: no id creates a mode, an id edits it (every field; records keep the terms they
 * started with). One transaction with its op-log row (old → new); the edited row is read under a row
 * lock, so concurrent edits each log what they replaced.
 */
export async function saveMode(ctx: Ctx, actor: Actor, input: PledgeModeInput) {
  const values = modeValuesOf(input);
  try {
    return await managerAction(ctx, actor, async ({ trx, now }) => {
      if ((await modeNamed(trx, values.name, input.id)) !== undefined) throw badInput(PledgeMessages.nameTaken);
      if (input.id === undefined) {
        const id = await insertMode(trx, values, now);
        const row = await findMode(trx, id);
        return {
          result: modeView(row!),
          log: {
            code: 'pledgeMode:update',
            target: `pledgeMode#${id}`,
            summary: `新增质押模式 #${id} ${values.name}（${termsText(values)}，${PledgeModeStatus.label(values.status)}）`,
          },
        };
      }
      const id = input.id;
      const old = await findMode(trx, id, true);
      if (!old) throw notFound(PledgeMessages.modeNotFound);
      const next = { ...values, status: input.status ?? Number(old.status), sort: input.sort ?? Number(old.sort) };
      await updateMode(trx, id, next, now);
      const oldRate = ratePercent(rateText(old.rate));
      const changes = changeList(
        [
          changed('名称', old.name, next.name),
          changed('天数', String(old.days), String(next.days)),
          changed('日收益率', oldRate, ratePercent(rateText(next.rate))),
          changed('最低金额', formatAsset(old.min_amount, 'LZ'), formatAsset(next.minAmount, 'LZ')),
          changed('最高金额', formatAsset(old.max_amount, 'LZ'), formatAsset(next.maxAmount, 'LZ')),
          changed('状态', PledgeModeStatus.label(Number(old.status)), PledgeModeStatus.label(next.status)),
          changed('排序', String(old.sort), String(next.sort)),
        ],
        '（无变化）',
      );
      const row = await findMode(trx, id);
      return {
        result: modeView(row!),
        log: {
          code: 'pledgeMode:update',
          target: `pledgeMode#${id}`,
          summary: `编辑质押模式 #${id} ${old.name}${changes}`,
        },
      };
    });
  } catch (err) {
    // Two managers creating the same name at once: the unique index refuses the second.
    if (isUniqueViolation(err)) throw badInput(PledgeMessages.nameTaken);
    throw err;
  }
}

/** The manager the demo data and tests act as when none is given: admin. */
async function adminActor(db: Kysely<Database>): Promise<Actor> {
  const m = await db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  return { managerId: Number(m?.id ?? 0), username: m?.username ?? ADMIN_USERNAME, ip: '127.0.0.1' };
}

/** Creates a mode as `actor` (admin when omitted): demo data, the simulator and tests. */
export async function createMode(ctx: Ctx, input: Omit<PledgeModeInput, 'id'>, actor?: Actor) {
  return saveMode(ctx, actor ?? (await adminActor(ctx.db)), input);
}

// ---- records ----

type FilterInput = Omit<Static<typeof PledgeListQuery>, 'page' | 'size' | 'order' | 'after' | 'before' | 'sort'>;

/** The list's filters read (the member keyword looked up, the range checked); the export reads the same. */
export async function filterOf(db: Kysely<Database>, q: FilterInput): Promise<PledgeFilter> {
  const { start, end } = parseRange(q);
  const members = await listMembers(db, q.keyword, q.memberId);
  return { members, modeId: q.modeId, status: q.status, start, end };
}

function pledgeView(r: PledgeRow) {
  return {
    id: Number(r.id),
    ...memberColumnsOf(r),
    modeId: Number(r.mode_id),
    modeName: r.mode_name,
    amount: formatAsset(r.amount, 'LZ'),
    rate: rateText(r.rate),
    days: Number(r.days),
    dailyYield: formatAsset(r.daily_yield, 'LZ'),
    totalYield: formatAsset(r.total_yield, 'LZ'),
    startDate: dateOfDay(Number(r.start_day)),
    endDate: dateOfDay(Number(r.end_day)),
    paidDate: dateOfDay(Number(r.paid_day)),
    released: formatAsset(r.released, 'LZ'),
    status: Number(r.status) as Status,
    createdAt: Number(r.created_at),
    finishedAt: r.finished_at == null ? null : Number(r.finished_at),
  };
}

export type PledgeListInput = Static<typeof PledgeListQuery>;

export async function listPledges(ctx: Ctx, q: PledgeListInput) {
  const { page, size, offset, keyset } = pageOf(q);
  const filter = await filterOf(ctx.db, q);
  const [found, run] = await Promise.all([
    findPledges(ctx.db, filter, { offset, limit: size, order: q.order ?? 'desc', keyset }),
    lastRun(ctx.db, ctx.clock.now()),
  ]);
  return {
    list: found.rows.map(pledgeView),
    total: found.total,
    page,
    size,
    next: found.next,
    prev: found.prev,
    sum: { amount: formatAsset(found.sumAmount, 'LZ'), released: formatAsset(found.sumReleased, 'LZ') },
    lastRun: run,
  };
}

// ---- releases ----

export type PledgeReleaseListInput = Static<typeof PledgeReleaseListQuery>;

export async function listPledgeReleases(ctx: Ctx, q: PledgeReleaseListInput) {
  const { page, size, offset, keyset } = pageOf(q);
  const { start, end } = parseRange(q);
  const { members } = await filterOf(ctx.db, { keyword: q.keyword, memberId: q.memberId });
  const found = await findReleases(
    ctx.db,
    {
      pledgeId: q.pledgeId,
      members,
      fromDay: start === undefined ? undefined : dayOf(start),
      toDay: end === undefined ? undefined : dayOf(end),
    },
    { offset, limit: size, order: q.order ?? 'desc', keyset },
  );
  return {
    list: found.rows.map((r) => ({
      id: Number(r.id),
      pledgeId: Number(r.pledge_id),
      ...memberColumnsOf(r),
      day: dateOfDay(Number(r.day)),
      amount: formatAsset(r.amount, 'LZ'),
      principal: formatAsset(r.principal, 'LZ'),
      createdAt: Number(r.created_at),
    })),
    total: found.total,
    page,
    size,
    next: found.next,
    prev: found.prev,
    sum: { amount: formatAsset(found.sumAmount, 'LZ'), principal: formatAsset(found.sumPrincipal, 'LZ') },
  };
}

export { pledge, type PledgeInput } from './pledge.member';
