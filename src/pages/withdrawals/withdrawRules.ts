/** The checks of the withdrawal rule fields, the way the server makes them (settings/values.ts). */
import { parseMinor, RATE_DECIMALS } from '../../../domain/money';
import { parseOpenHours } from '../../../domain/withdrawals';

/** Places a fee rate may have as a percentage (the fraction's RATE_DECIMALS, two fewer). */
const PERCENT_DECIMALS = RATE_DECIMALS - 2;
/** A fee rate above this (a percentage) is unusual: saving it asks first. */
export const FEE_PERCENT_WARN = 10n * 10n ** BigInt(PERCENT_DECIMALS);

/** The operator types a percentage ("1.5" = 1.5 %); the server keeps the fraction ("0.015"). */
export function feeRateError(percent: string): string | null {
  const r = parseMinor(percent.trim(), PERCENT_DECIMALS, { allowZero: true });
  if (!r.ok) {
    if (r.reason === 'decimals') return `手续费率小数位数过多（最多${PERCENT_DECIMALS}位）`;
    if (r.reason === 'negative') return '手续费率不能为负数';
    return '手续费率格式不正确';
  }
  return r.value >= 100n * 10n ** BigInt(PERCENT_DECIMALS) ? '手续费率必须小于100%' : null;
}

/** True when the percentage is above FEE_PERCENT_WARN (the form asks before saving it). */
export function feePercentHigh(percent: string): boolean {
  const r = parseMinor(percent.trim(), PERCENT_DECIMALS, { allowZero: true });
  return r.ok && r.value > FEE_PERCENT_WARN;
}

export function openHoursError(value: string): string | null {
  return parseOpenHours(value.trim()) ? null : '开放时间格式不正确，例如 09:00-18:00';
}

export function timesError(value: string): string | null {
  return /^\d+$/.test(value.trim()) && Number(value) <= 1000 ? null : '每日次数须为0到1000的整数';
}
