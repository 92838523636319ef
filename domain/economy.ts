/**
 * The terms and rounding of the LZ economy, written once (DOMAIN.md §3 Pledge, Bills and energy):
 * the pledge page, the settlement job and the seeds module all read them from here.
 *
 * A record created on Asia/Shanghai day S with `days` N earns on days S+1 … S+N (N release days); its
 * end day is S+N. Every amount is an integer of the asset's minor unit; rates are integers over
 * 10^RATE_DECIMALS ("0.0123" = 12300). Rounding is always down to the minor unit, and the remainder is
 * paid on the end day, so the sum of a record's releases is its terms exactly.
 */
import { RATE_DECIMALS } from './money';

const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);

/** What a record pays: `daily` on each day but the last, `total` over all its days. */
export interface Terms {
  daily: bigint;
  total: bigint;
}

/**
 * A pledge of `amount` minor units at daily `rate` (over 10^RATE_DECIMALS) for `days` days:
 * total = floor(amount × rate × days / 10^6), daily = floor(amount × rate / 10^6).
 */
export function pledgeTerms(amount: bigint, rate: bigint, days: number): Terms {
  if (amount <= 0n) throw new RangeError('amount must be positive');
  if (rate < 0n) throw new RangeError('rate must not be negative');
  checkDays(days);
  return { daily: (amount * rate) / RATE_SCALE, total: (amount * rate * BigInt(days)) / RATE_SCALE };
}

/** A seed of `total` minor units of energy over `days` days: daily = floor(total / days). */
export function seedTerms(total: bigint, days: number): Terms {
  if (total <= 0n) throw new RangeError('total must be positive');
  checkDays(days);
  return { daily: total / BigInt(days), total };
}

function checkDays(days: number): void {
  if (!Number.isInteger(days) || days < 1) throw new RangeError('days must be a positive integer');
}

/** The end day of a record started on `startDay` for `days` days (its last release day). */
export const endDayOf = (startDay: number, days: number) => startDay + days;

/**
 * The release of `day` of a record started on `startDay` for `days` days: `daily` on days
 * startDay+1 … end−1, total − daily × (days − 1) on the end day (never less than daily), 0 outside.
 */
export function releaseOf(terms: Terms, day: number, startDay: number, days: number): bigint {
  const k = day - startDay;
  if (!Number.isInteger(k) || k < 1 || k > days) return 0n;
  if (k < days) return terms.daily;
  return terms.total - terms.daily * BigInt(days - 1);
}

/** The sum of the releases of days startDay+1 … `day` (what a record has paid once `day` is settled). */
export function releasedThrough(terms: Terms, day: number, startDay: number, days: number): bigint {
  const k = Math.min(day - startDay, days);
  if (k < 1) return 0n;
  if (k < days) return terms.daily * BigInt(k);
  return terms.total;
}

/** "0.0123" for 12300: a rate numerator as its decimal string. */
export function rateText(rate: bigint | string | number): string {
  const v = BigInt(rate);
  const whole = v / RATE_SCALE;
  const frac = (v % RATE_SCALE).toString().padStart(RATE_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** A daily rate as the pages show it: "0.0123" → "1.23%" (exact, string arithmetic only). */
export function ratePercent(rate: string): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!m) return rate;
  const [, whole, frac = ''] = m;
  const digits = `${whole}${frac.padEnd(2, '0')}`;
  const cut = whole.length + 2;
  const intPart = digits.slice(0, cut).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(cut).replace(/0+$/, '');
  return `${intPart}${rest ? `.${rest}` : ''}%`;
}

/** "1.23" (percent, as typed) → "0.0123" (the wire's decimal rate); null when not a plain decimal. */
export function percentToRate(percent: string): string | null {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(percent.trim());
  if (!m) return null;
  const [, whole, frac = ''] = m;
  const w = whole.replace(/^0+(?=\d)/, '');
  const padded = w.padStart(3, '0');
  const intPart = padded.slice(0, -2).replace(/^0+(?=\d)/, '');
  const fracPart = `${padded.slice(-2)}${frac}`.replace(/0+$/, '');
  return fracPart ? `${intPart}.${fracPart}` : intPart;
}
