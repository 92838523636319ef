/**
 * 数据统计: what each figure and daily series is called (the welcome page's waiting counts are in
 * ./waiting.ts, apart so that the shell's sidebar badges do not carry these).
 */

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
