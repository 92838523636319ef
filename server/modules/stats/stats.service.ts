/**
 * 数据统计 (`stat`) and the welcome page's waiting work. Figures are range totals summed from daily
 * counter rows, and the state now from the status counters; every amount is a decimal string in its
 * asset's decimals.
 */
import type { Asset } from '../../../domain/assets';
import { formatAsset } from '../../../domain/money';
import { STAT_MAX_DAYS, type StatFigureKey, type StatSeriesKey } from '../../../domain/stats';
import { WaitingItems, type WaitingCount, type WaitingKey } from '../../../domain/waiting';
import type { Ctx } from '../../context';
import { dateOfDay, dayOf } from '../../db/dayBuckets';
import { badInput } from '../../errors';
import { parseTimeBound } from '../../range';
import type { SessionManager } from '../auth/session.service';
import { snapshot } from './stats.repository';
import { DaySums, statDayTable } from './stats.days';

export interface StatFigure {
  key: StatFigureKey;
  count: number | null;
  amount: string | null;
  asset: Asset | null;
}
export interface StatSeriesOut {
  key: StatSeriesKey;
  asset: Asset | null;
  /** One value per day of `days`: a count, or an amount in the asset's decimals. */
  points: string[];
}

/** The range's first and last Asia/Shanghai day: the last 7 days when not given; at most a year. */
export function statDays(q: { start?: string; end?: string }, now: number) {
  const today = dayOf(now);
  const s = parseTimeBound(q.start, '开始日期');
  const e = parseTimeBound(q.end, '结束日期');
  const to = e === undefined ? today : dayOf(e);
  const from = s === undefined ? to - 6 : dayOf(s);
  if (from > to) throw badInput('开始日期不能晚于结束日期');
  if (to - from + 1 > STAT_MAX_DAYS) throw badInput(`统计范围最长 ${STAT_MAX_DAYS} 天`);
  return { from, to };
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** What waits now, with its sum in the asset's decimals: withdrawals (1 提现 USDT, 2 提取 LZ) and deposits. */
function pendingOf(now: Snapshot, what: 1 | 2 | 'deposit') {
  const asset: Asset = what === 2 ? 'LZ' : 'USDT';
  const p = what === 'deposit' ? now.depositPending : now.withdrawPending[what];
  return { count: p?.n ?? 0, amount: formatAsset(p?.amount ?? '0', asset), asset };
}

export async function getStat(ctx: Ctx, q: { start?: string; end?: string }) {
  const { from, to } = statDays(q, ctx.clock.now());
  const days = to - from + 1;
  const [table, now] = await Promise.all([statDayTable(ctx, from, to), snapshot(ctx.db)]);
  const sums = table.sums;
  const newMembers = table.at('membersNew:');
  const sum = (key: string, asset: Asset) => sums.get(`${key}:${asset}`) ?? new DaySums(from, days);
  const figure = (key: StatFigureKey, s: DaySums, asset: Asset | null): StatFigure => ({
    key,
    count: s.count,
    amount: asset ? formatAsset(s.total, asset) : null,
    asset,
  });
  const orderAssets = (['USDT', 'LZ', 'ENERGY'] as const).filter((a) => sums.has(`orders:${a}`));
  const refundAssets = (['USDT', 'LZ', 'ENERGY'] as const).filter((a) => sums.has(`refunds:${a}`));
  const figures: StatFigure[] = [
    { key: 'membersTotal', count: now.members, amount: null, asset: null },
    figure('membersNew', newMembers, null),
    figure('deposits', sum('deposits', 'USDT'), 'USDT'),
    { key: 'depositsPending', ...pendingOf(now, 'deposit') },
    { key: 'withdrawPending', ...pendingOf(now, 1) },
    figure('withdrawPaid', sum('withdrawPaid', 'USDT'), 'USDT'),
    { key: 'extractPending', ...pendingOf(now, 2) },
    figure('extractPaid', sum('extractPaid', 'LZ'), 'LZ'),
    { key: 'pledgeActive', count: now.pledgeActive.n, amount: formatAsset(now.pledgeActive.amount, 'LZ'), asset: 'LZ' },
    figure('pledgeNew', sum('pledgeNew', 'LZ'), 'LZ'),
    figure('pledgeIncome', sum('pledgeIncome', 'LZ'), 'LZ'),
    ...(orderAssets.length ? orderAssets : (['USDT'] as const)).map((a) => figure('orders', sum('orders', a), a)),
    ...refundAssets.map((a) => figure('refunds', sum('refunds', a), a)),
    figure('energyReleased', sum('energyReleased', 'ENERGY'), 'ENERGY'),
  ];
  const amounts = (s: DaySums, asset: Asset) => s.amount.map((v) => (v === 0n ? '0' : formatAsset(v, asset)));
  const counts = (s: DaySums) => s.n.map(String);
  const allOrders = new DaySums(from, days);
  for (const a of orderAssets) sum('orders', a).n.forEach((n, i) => allOrders.add(from + i, n, 0n));
  const series: StatSeriesOut[] = [
    { key: 'membersNew', asset: null, points: counts(newMembers) },
    { key: 'deposits', asset: 'USDT', points: amounts(sum('deposits', 'USDT'), 'USDT') },
    { key: 'withdrawPaid', asset: 'USDT', points: amounts(sum('withdrawPaid', 'USDT'), 'USDT') },
    { key: 'extractPaid', asset: 'LZ', points: amounts(sum('extractPaid', 'LZ'), 'LZ') },
    { key: 'pledgeNew', asset: 'LZ', points: amounts(sum('pledgeNew', 'LZ'), 'LZ') },
    { key: 'pledgeIncome', asset: 'LZ', points: amounts(sum('pledgeIncome', 'LZ'), 'LZ') },
    { key: 'orders', asset: null, points: counts(allOrders) },
    ...orderAssets.map((a) => ({ key: 'sales' as const, asset: a, points: amounts(sum('orders', a), a) })),
    { key: 'energyReleased', asset: 'ENERGY', points: amounts(sum('energyReleased', 'ENERGY'), 'ENERGY') },
  ];
  return {
    start: dateOfDay(from),
    end: dateOfDay(to),
    days: Array.from({ length: days }, (_, i) => dateOfDay(from + i)),
    figures,
    series,
  };
}

/** The welcome page: who, the login before this one, and the waiting counts of the pages this manager may open. */
export async function getWelcome(ctx: Ctx, manager: SessionManager) {
  const [now, row] = await Promise.all([
    snapshot(ctx.db),
    ctx.db
      .selectFrom('manager')
      .select(['prev_login_at', 'prev_login_ip', 'last_login_at'])
      .where('id', '=', manager.id)
      .executeTakeFirst(),
  ]);
  const all: Record<WaitingKey, Omit<WaitingCount, 'key'>> = {
    withdraw: pendingOf(now, 1),
    extract: pendingOf(now, 2),
    deposit: pendingOf(now, 'deposit'),
    appeal: { count: now.appeals, amount: null, asset: null },
    ship: { count: now.toShip, amount: null, asset: null },
  };
  const waiting = (Object.keys(WaitingItems) as WaitingKey[])
    .filter((k) => manager.codes.has(WaitingItems[k].page))
    .map((key) => ({ key, ...all[key] }));
  return {
    username: manager.username,
    lastLoginAt: row?.prev_login_at == null ? null : Number(row.prev_login_at),
    lastLoginIp: row?.prev_login_ip ?? '',
    waiting,
  };
}
