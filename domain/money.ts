/**
 * Money is an integer count of an asset's minor unit (bigint in code, BIGINT in the database) and
 * a decimal string on the wire. Nothing here ever goes through a float.
 */
import { Asset, AssetDisplayPlaces, assetDecimals } from './assets';

export type MoneyParseError = 'format' | 'decimals' | 'negative' | 'zero' | 'range';

/**
 * Largest magnitude parseMinor accepts when no ceiling is given (rates and filters, never a balance):
 * fits a signed 64-bit column.
 */
export const MAX_MINOR = 10n ** 17n;

/**
 * The ceiling of every amount and every balance (available + frozen) of an asset, in minor units:
 * 10^14, i.e. 100,000,000 USDT, 10,000,000,000 LZ, 1,000,000,000,000 ENERGY. Far above real use, and
 * 92,233 ceiling-size amounts still fit one signed 64-bit sum (2^63 ≈ 9.22 × 10^18), so counters and
 * sums stay integers (docs/decisions.md "Money ceilings").
 */
export const AssetCeiling: Record<Asset, bigint> = { USDT: 10n ** 14n, LZ: 10n ** 14n, ENERGY: 10n ** 14n };

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string into minor units of `decimals` places.
 * Returns the amount or the reason it was refused; callers turn the reason into a 400 naming the field.
 */
export function parseMinor(
  text: string,
  decimals: number,
  opts: { allowNegative?: boolean; allowZero?: boolean; max?: bigint } = {},
): { ok: true; value: bigint } | { ok: false; reason: MoneyParseError } {
  const m = DECIMAL.exec(String(text).trim());
  if (!m) return { ok: false, reason: 'format' };
  const [, sign, whole, frac = ''] = m;
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > decimals) return { ok: false, reason: 'decimals' };
  let value = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(trimmed.padEnd(decimals, '0') || '0');
  if (sign === '-') value = -value;
  if (value < 0n && !opts.allowNegative) return { ok: false, reason: 'negative' };
  if (value === 0n && !opts.allowZero) return { ok: false, reason: 'zero' };
  const max = opts.max ?? MAX_MINOR;
  if (value > max || value < -max) return { ok: false, reason: 'range' };
  return { ok: true, value };
}

const INTEGER_TEXT = /^-?\d+$/;

/** Formats minor units as a plain decimal string without trailing zeros ("12.5", "-0.000001", "3"). */
export function formatMinor(value: bigint | string | number, decimals: number): string {
  // Text from the database (money columns are read as text): place the point by hand, no BigInt
  // arithmetic — list pages format dozens of amounts per request.
  if (value === '0') return '0'; // most balances of a page
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) return formatMinorText(value, decimals);
  let v = typeof value === 'bigint' ? value : BigInt(value);
  const negative = v < 0n;
  if (negative) v = -v;
  const base = 10n ** BigInt(decimals);
  const whole = v / base;
  const frac = decimals > 0 ? (v % base).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

function formatMinorText(text: string, decimals: number): string {
  const negative = text.charCodeAt(0) === 45; // '-'
  let digits = negative ? text.slice(1) : text;
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++; // leading zeros, one kept
  if (i > 0) digits = digits.slice(i);
  if (digits.length <= decimals) digits = digits.padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  const whole = digits.slice(0, cut);
  let end = digits.length;
  while (end > cut && digits.charCodeAt(end - 1) === 48) end--; // trailing zeros of the fraction
  const frac = digits.slice(cut, end);
  const zero = frac === '' && whole === '0';
  return `${negative && !zero ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Formats with thousands separators and a fixed number of places, for display only. */
export function displayMoney(text: string, places: number): string {
  const m = DECIMAL.exec(text);
  if (!m) return text;
  const [, sign, whole, frac = ''] = m;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const f = frac.padEnd(places, '0').slice(0, Math.max(places, frac.replace(/0+$/, '').length));
  return `${sign === '-' ? '-' : ''}${grouped}${f ? `.${f}` : ''}`;
}

/**
 * An amount as every message and op-log row writes it: thousands separators, the asset's display
 * places (more only where the amount has them) and the asset — "18,492.9160 LZ", "100.00 USDT". The
 * console's columns show the same (MoneyText).
 */
export const assetText = (value: bigint | string | number, asset: Asset) =>
  `${displayMoney(formatAsset(value, asset), AssetDisplayPlaces[asset])} ${asset}`;

/** Parses an amount of `asset`: its decimals, and at most its ceiling in magnitude. */
export const parseAsset = (text: string, asset: Asset, opts?: { allowNegative?: boolean; allowZero?: boolean }) =>
  parseMinor(text, assetDecimals(asset), { ...opts, max: AssetCeiling[asset] });
export const formatAsset = (value: bigint | string | number, asset: Asset) => formatMinor(value, assetDecimals(asset));

export const moneyReasonText: Record<MoneyParseError, string> = {
  format: '格式不正确',
  decimals: '小数位数过多',
  negative: '不能为负数',
  zero: '必须大于0',
  range: '超出允许范围',
};

/** The ceiling of `asset` as a decimal string ("100000000" for USDT). */
export const assetCeilingText = (asset: Asset) => formatAsset(AssetCeiling[asset], asset);

/** The message for an amount of `asset` that parseAsset refused, naming the field ("调整金额不能超过100000000"). */
export function moneyRefusal(field: string, reason: MoneyParseError, asset: Asset): string {
  return reason === 'range' ? `${field}不能超过${assetCeilingText(asset)}` : `${field}${moneyReasonText[reason]}`;
}

/** Places a fee rate may have: a rate is a numerator over 10^RATE_DECIMALS. */
export const RATE_DECIMALS = 6;

/** A rate fraction as the percentage operators type: "0.015" → "1.5" (exact; the text as written when it is not a rate). */
export function rateToPercent(rate: string): string {
  const r = parseMinor(rate.trim(), RATE_DECIMALS, { allowZero: true });
  return r.ok ? formatMinor(r.value, RATE_DECIMALS - 2) : rate;
}

/** A typed percentage as the fraction the server keeps: "1.5" → "0.015" (exact; check it first). */
export function percentToRate(percent: string): string {
  const r = parseMinor(percent.trim(), RATE_DECIMALS - 2, { allowZero: true });
  return r.ok ? formatMinor(r.value, RATE_DECIMALS) : percent;
}

/** A stored rate fraction as a percentage, exactly: "0.015" → "1.5%". */
export const ratePercentText = (rate: string) => `${rateToPercent(rate)}%`;

/**
 * The fee of `amount` minor units: max(amount × rate rounded up to the minor unit, feeMin), in
 * integers only.
 */
export function feeOf(amount: bigint, rateNumerator: bigint, feeMin: bigint): bigint {
  const den = 10n ** BigInt(RATE_DECIMALS);
  const product = amount * rateNumerator;
  const byRate = (product + den - 1n) / den;
  return byRate > feeMin ? byRate : feeMin;
}
