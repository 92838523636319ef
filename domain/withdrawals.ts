import type { Asset } from './assets';
import { defineEnum, defineTransitions, type EnumValue } from './enums';

/** Withdrawal type: 1 提现 (USDT to a chain address), 2 提取 (LZ to a wallet address). */
export const WithdrawType = defineEnum('类型', {
  withdraw: [1, '提现', 'primary'],
  extract: [2, '提取', 'secondary'],
});
export type WithdrawType = EnumValue<typeof WithdrawType>;
export const WithdrawAsset: Record<WithdrawType, Asset> = { 1: 'USDT', 2: 'LZ' };

/** Withdrawal status: 0 待审核, 1 待打款, 2 已完成, 3 已驳回. */
export const WithdrawStatus = defineEnum('状态', {
  pending: [0, '待审核', 'warning'],
  approved: [1, '待打款', 'info'],
  paid: [2, '已完成', 'success'],
  rejected: [3, '已驳回', 'error'],
});
export type WithdrawStatus = EnumValue<typeof WithdrawStatus>;

/** Manager actions on a withdrawal, with the states each may start from and where it goes. */
export const WithdrawActions = defineTransitions(WithdrawStatus, {
  approve: { label: '通过', from: [0], to: 1 },
  paid: { label: '打款', from: [1], to: 2 },
  reject: { label: '驳回', from: [0, 1], to: 3 },
});
export type WithdrawAction = 'approve' | 'paid' | 'reject';

/** The permission codes of each type's page: view, audit (approve/reject) and pay. */
export const WithdrawCodes: Record<WithdrawType, { view: string; audit: string; pay: string; export: string }> = {
  1: { view: 'withdraw:view', audit: 'withdraw:audit', pay: 'withdraw:pay', export: 'withdraw:export' },
  2: { view: 'extract:view', audit: 'extract:audit', pay: 'extract:pay', export: 'extract:export' },
};
/** Every code that lets a manager act on some withdrawal (audit or pay, either type). */
export const WithdrawActionCodes = Object.values(WithdrawCodes).flatMap((c) => [c.audit, c.pay]);

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
