/** The checks of the withdrawal rule fields, the way the server makes them (settings/values.ts). */
import { parseMinor } from '../../../domain/money';
import { parseOpenHours } from '../../../domain/withdrawals';

/** Places a fee rate may have (server/modules/settings/values.ts RATE_DECIMALS). */
const RATE_DECIMALS = 6;

export function feeRateError(value: string): string | null {
  const r = parseMinor(value.trim(), RATE_DECIMALS, { allowZero: true });
  if (!r.ok) {
    if (r.reason === 'decimals') return `手续费率小数位数过多（最多${RATE_DECIMALS}位）`;
    if (r.reason === 'negative') return '手续费率不能为负数';
    return '手续费率格式不正确';
  }
  return r.value >= 10n ** BigInt(RATE_DECIMALS) ? '手续费率必须小于1' : null;
}

export function openHoursError(value: string): string | null {
  return parseOpenHours(value.trim()) ? null : '开放时间格式不正确，例如 09:00-18:00';
}

export function timesError(value: string): string | null {
  return /^\d+$/.test(value.trim()) && Number(value) <= 1000 ? null : '每日次数须为0到1000的整数';
}
