/** Parsing of amounts and rates that arrive as decimal strings: a refusal is a 400 naming the field. */
import type { Asset } from '../../domain/assets';
import { formatAsset, moneyReasonText, moneyRefusal, parseAsset, parseMinor, RATE_DECIMALS } from '../../domain/money';
import { badInput } from '../errors';

/** A decimal string of `asset` → minor units; zero only when `allowZero`. */
export function amountOf(text: string, asset: Asset, field: string, opts: { allowZero?: boolean } = {}): bigint {
  const r = parseAsset(String(text ?? ''), asset, { allowZero: opts.allowZero });
  if (!r.ok) throw badInput(moneyRefusal(field, r.reason, asset));
  return r.value;
}

/** Canonical decimal text of an amount (trailing zeros dropped), as stored in settings. */
export const canonicalAmount = (text: string, asset: Asset, field: string, opts: { allowZero?: boolean } = {}) =>
  formatAsset(amountOf(text, asset, field, opts), asset);

/** A rate 0 ≤ r < 1 as numerator over 10^RATE_DECIMALS. */
export function rateOf(text: string, field: string): bigint {
  const r = parseMinor(String(text ?? ''), RATE_DECIMALS, { allowZero: true });
  if (!r.ok) throw badInput(`${field}${moneyReasonText[r.reason]}`);
  if (r.value >= 10n ** BigInt(RATE_DECIMALS)) throw badInput(`${field}必须小于1`);
  return r.value;
}
