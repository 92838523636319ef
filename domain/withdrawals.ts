import type { Asset } from './assets';
import { labeledEnum } from './labels';

/** Withdrawal type: 1 提现 (USDT to a chain address), 2 提取 (LZ to a wallet address). */
export const WithdrawType = labeledEnum({
  1: { label: '提现', color: 'primary' },
  2: { label: '提取', color: 'secondary' },
});
export type WithdrawType = 1 | 2;
export const WithdrawAsset: Record<WithdrawType, Asset> = { 1: 'USDT', 2: 'LZ' };

/** Withdrawal status: 0 待审核, 1 待打款, 2 已完成, 3 已驳回. */
export const WithdrawStatus = labeledEnum({
  0: { label: '待审核', color: 'warning' },
  1: { label: '待打款', color: 'info' },
  2: { label: '已完成', color: 'success' },
  3: { label: '已驳回', color: 'error' },
});
export const WithdrawState = { pending: 0, approved: 1, paid: 2, rejected: 3 } as const;

/** The permission codes of each type's page: view, audit (approve/reject) and pay. */
export const WithdrawCodes: Record<WithdrawType, { view: string; audit: string; pay: string }> = {
  1: { view: 'withdraw:view', audit: 'withdraw:audit', pay: 'withdraw:pay' },
  2: { view: 'extract:view', audit: 'extract:audit', pay: 'extract:pay' },
};

/** Open hours "HH:mm-HH:mm" (Asia/Shanghai); the end may be 24:00; an end before the start wraps past midnight. */
export const OPEN_HOURS_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d-(([01]\\d|2[0-3]):[0-5]\\d|24:00)$';

/** Minutes of the day of "HH:mm". */
const minutes = (hm: string) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5));

export function parseOpenHours(text: string): { from: number; to: number } | null {
  if (!new RegExp(OPEN_HOURS_PATTERN).test(text)) return null;
  const [a, b] = text.split('-');
  const from = minutes(a);
  const to = minutes(b);
  return from === to ? null : { from, to };
}

/** Whether minute-of-day `m` lies in the window [from, to) (wrapping past midnight when to < from). */
export function withinOpenHours(text: string, minuteOfDay: number): boolean {
  const w = parseOpenHours(text);
  if (!w) return false;
  return w.from < w.to ? minuteOfDay >= w.from && minuteOfDay < w.to : minuteOfDay >= w.from || minuteOfDay < w.to;
}
