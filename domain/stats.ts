/**
 * 数据统计 and the welcome page's waiting work: what each figure and daily series is called, and which
 * page each waiting count belongs to (a manager sees the counts of the pages they may open; the card
 * links to the list already filtered).
 */
import type { Asset } from './assets';
import type { PageCode } from './pagePaths';

/** Figure cards of `stat`: range totals and, where marked, the state now. */
export const StatFigures = {
  membersTotal: '会员总数',
  membersNew: '新增会员',
  deposits: '充值到账',
  depositsPending: '充值待确认',
  withdrawPending: '提现待审核',
  withdrawPaid: '提现已打款',
  extractPending: '提取待审核',
  extractPaid: '提取已打款',
  pledgeActive: '质押中 LZ',
  pledgeNew: '新增质押',
  pledgeIncome: '质押收益发放',
  orders: '商城订单',
  refunds: '商城退款',
  energyReleased: '能量释放',
} as const;
export type StatFigureKey = keyof typeof StatFigures;

/** Daily series of `stat` (the charts): a count or an amount of one asset per day. */
export const StatSeries = {
  membersNew: '新增会员',
  deposits: '充值到账',
  withdrawPaid: '提现打款',
  extractPaid: '提取打款',
  pledgeNew: '新增质押',
  pledgeIncome: '质押收益',
  orders: '订单数',
  sales: '销售额',
  energyReleased: '能量释放',
} as const;
export type StatSeriesKey = keyof typeof StatSeries;

/** The longest range `stat` answers, in days (a year, leap years included). */
export const STAT_MAX_DAYS = 366;

/** The welcome page's waiting counts: the page each opens, and the list filter it opens with. */
export const WaitingItems = {
  withdraw: { title: '提现待审核', page: 'withdraw:view', query: 'status=0' },
  extract: { title: '提取待审核', page: 'extract:view', query: 'status=0' },
  deposit: { title: '充值待确认', page: 'deposit:view', query: 'status=0' },
  appeal: { title: '申诉中', page: 'match:view', query: 'status=5' },
  ship: { title: '待发货', page: 'order:view', query: 'status=1' },
} as const satisfies Record<string, { title: string; page: PageCode; query: string }>;
export type WaitingKey = keyof typeof WaitingItems;

/** One waiting count with the sum it holds (withdrawals and deposits carry an amount). */
export interface WaitingCount {
  key: WaitingKey;
  count: number;
  amount: string | null;
  asset: Asset | null;
}
