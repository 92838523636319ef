/**
 * Pledges (DOMAIN.md §3 Pledge): the modes a member may pledge LZ at (list, create and edit with an
 * op-log row; a mode in use can be disabled, never deleted), the records with their export and daily
 * releases, and the member-side `pledge` (LZ out of available into the record, bill 质押锁定). The
 * daily releases are paid by the settlement job (server/modules/settlement), which moves this
 * module's counters through pledge.query.ts.
 */
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { PledgeExportQuery, PledgeListQuery, PledgeModeBody, PledgeReleaseListQuery } from './pledge.schema';
import { BillType } from '../../../domain/bills';
import { pledgeTerms, ratePercent, rateText } from '../../../domain/economy';
import { MemberStatus } from '../../../domain/members';
import { formatAsset, moneyReasonText, parseMinor, RATE_DECIMALS } from '../../../domain/money';
import { PLEDGE_MAX_RATE, PledgeModeStatus, PledgeStatus } from '../../../domain/pledge';
import type { Actor, Ctx, ExportCtx } from '../../context';
import { countedTransaction } from '../../db/counterMoves';
import { DAY_MS, dayOf } from '../../db/dayBuckets';
import { isUniqueViolation } from '../../db/dialect';
import { pageOf } from '../../db/keyset';
import type { Database } from '../../db/schema';
import { badInput, notFound } from '../../errors';
import { exportTimeFormatter, keysetBatches, readsAhead, type ExportSpec } from '../../export/export';
import { amountOf } from '../../http/amounts';
import { parseRange } from '../../range';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { applyChange } from '../ledger/ledger.service';
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
import {
  findPledges,
  findReleases,
  insertPledge,
  lockMember,
  pledgeBatch,
  type PledgeFilter,
  type PledgeRow,
} from './pledge.repository';

export const PledgeMessages = {
  modeNotFound: '质押模式不存在',
  modeDisabled: '该质押模式已停用',
  nameRequired: '模式名称不能为空',
  nameTaken: '模式名称已存在',
  rateTooHigh: '日收益率不能超过0.05',
  maxBelowMin: '最高金额不能低于最低金额',
  memberMissing: '会员不存在',
  memberFrozen: '会员已冻结',
} as const;

type ModeStatus = 0 | 1;
type Status = 1 | 2;

/** YYYY-MM-DD of an Asia/Shanghai day number. */
export const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

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

async function filterOf(db: Kysely<Database>, q: FilterInput): Promise<PledgeFilter> {
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
    startDate: dayText(Number(r.start_day)),
    endDate: dayText(Number(r.end_day)),
    paidDate: dayText(Number(r.paid_day)),
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

export type PledgeExportInput = Static<typeof PledgeExportQuery>;

/** The export of the list's filters (all rows, newest first), for server/export. */
export async function pledgeExport(
  ctx: ExportCtx,
  q: PledgeExportInput,
  batchSize?: number,
): Promise<ExportSpec<PledgeRow>> {
  const filter = await filterOf(ctx.db, q); // validates the range before any byte is sent
  const createdAt = exportTimeFormatter();
  const finishedAt = exportTimeFormatter();
  return {
    title: '质押记录',
    columns: [
      { header: 'ID', width: 10, value: (r) => Number(r.id) },
      { header: '会员UID', width: 12, value: (r) => r.uid },
      { header: '手机号', width: 14, value: (r) => r.phone },
      { header: '昵称', width: 14, value: (r) => r.nickname },
      { header: '质押模式', width: 16, value: (r) => r.mode_name },
      { header: '质押数量(LZ)', width: 16, value: (r) => formatAsset(r.amount, 'LZ') },
      { header: '日收益率', width: 10, value: (r) => ratePercent(rateText(r.rate)) },
      { header: '天数', width: 8, value: (r) => Number(r.days) },
      { header: '每日收益(LZ)', width: 14, value: (r) => formatAsset(r.daily_yield, 'LZ') },
      { header: '总收益(LZ)', width: 14, value: (r) => formatAsset(r.total_yield, 'LZ') },
      { header: '已释放(LZ)', width: 14, value: (r) => formatAsset(r.released, 'LZ') },
      { header: '开始日期', width: 12, value: (r) => dayText(Number(r.start_day)) },
      { header: '到期日期', width: 12, value: (r) => dayText(Number(r.end_day)) },
      { header: '状态', width: 10, value: (r) => PledgeStatus.label(Number(r.status)) },
      { header: '创建时间', width: 20, value: (r) => createdAt(Number(r.created_at)) },
      {
        header: '到期时间',
        width: 20,
        value: (r) => finishedAt(r.finished_at == null ? null : Number(r.finished_at)),
      },
    ],
    batches: keysetBatches(
      (after, limit) => pledgeBatch(ctx.db, filter, after, limit),
      (r) => Number(r.id),
      batchSize,
      readsAhead(ctx),
    ),
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
      day: dayText(Number(r.day)),
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

// ---- member side ----

export interface PledgeInput {
  memberId: number;
  modeId: number;
  /** LZ minor units. */
  amount: bigint;
}

/**
 * Member side: pledges `amount` LZ on a mode. Refuses a missing or disabled mode, an amount outside
 * its min/max, a missing or frozen member and a short balance (可用余额不足); creates the record with
 * the mode's terms (domain/economy.ts) and moves the LZ out of available (bill 质押锁定) in one
 * transaction. Day S = the Asia/Shanghai day of `now`; the record earns on S+1 … S+days.
 */
export async function pledge(ctx: Ctx, input: PledgeInput, now: number = ctx.clock.now()) {
  const mode = await findMode(ctx.db, input.modeId);
  if (!mode) throw badInput(PledgeMessages.modeNotFound);
  if (Number(mode.status) !== PledgeModeStatus.is.enabled) throw badInput(PledgeMessages.modeDisabled);
  const min = BigInt(mode.min_amount);
  const max = BigInt(mode.max_amount);
  if (input.amount < min) throw badInput(`质押数量不能低于${formatAsset(min, 'LZ')}`);
  if (input.amount > max) throw badInput(`质押数量不能高于${formatAsset(max, 'LZ')}`);
  const rate = BigInt(mode.rate);
  const days = Number(mode.days);
  const terms = pledgeTerms(input.amount, rate, days);
  const startDay = dayOf(now);
  return countedTransaction(ctx.db, async (trx, counts) => {
    const member = await lockMember(trx, input.memberId);
    if (!member) throw badInput(PledgeMessages.memberMissing);
    if (member.status === MemberStatus.is.frozen) throw badInput(PledgeMessages.memberFrozen);
    const id = await insertPledge(trx, counts, {
      memberId: input.memberId,
      modeId: Number(mode.id),
      modeName: mode.name,
      amount: input.amount,
      rate,
      days,
      dailyYield: terms.daily,
      totalYield: terms.total,
      startDay,
      now,
    });
    await applyChange(
      trx,
      {
        memberId: input.memberId,
        asset: 'LZ',
        available: -input.amount,
        type: BillType.pledgeLock,
        ref: { kind: 'pledge', id },
        remark: `质押锁定 #${id}（${mode.name}）`,
      },
      now,
    );
    return {
      id,
      modeName: mode.name,
      amount: formatAsset(input.amount, 'LZ'),
      dailyYield: formatAsset(terms.daily, 'LZ'),
      totalYield: formatAsset(terms.total, 'LZ'),
      startDate: dayText(startDay),
      endDate: dayText(startDay + days),
    };
  });
}
