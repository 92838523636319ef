/**
 * An amount input: a TextField holding the decimal string as typed (never a number), ignoring
 * keystrokes that cannot be part of a signed decimal, with the asset code at its end. Validation goes through
 * domain/money.ts parseAsset, so the client refuses exactly what the server would:
 *
 *   amount: { label: '金额', required: true, validate: moneyRule('USDT') }      // useForm rule
 *   <MoneyField asset="USDT" {...form.field('amount')} />
 */
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ChangeEvent } from 'react';
import { assetDecimals, type Asset } from '../../domain/assets';
import { moneyReasonText, moneyRefusal, parseAsset } from '../../domain/money';

export interface MoneyOptions {
  /** A balance adjustment may be negative. */
  allowNegative?: boolean;
  allowZero?: boolean;
}

/** The Chinese error for an amount, naming the field ("金额小数位数过多（最多6位）"), or null when valid. */
export function validateMoney(value: string, asset: Asset, label = '金额', opts: MoneyOptions = {}): string | null {
  const text = value.trim();
  if (!text) return `${label}不能为空`;
  const parsed = parseAsset(text, asset, opts);
  if (parsed.ok) return null;
  // An amount that may be negative (a balance adjustment) refuses only zero: "必须大于0" would mislead.
  if (parsed.reason === 'zero' && opts.allowNegative) return `${label}不能为0`;
  if (parsed.reason === 'decimals') return `${label}${moneyReasonText.decimals}（最多${assetDecimals(asset)}位）`;
  // The server's words for the rest ("金额不能超过100000000", not a vague "超出允许范围").
  return moneyRefusal(label, parsed.reason, asset);
}

/** A useForm `validate` rule for an amount of `asset`; its messages use the field's label. */
export const moneyRule =
  (asset: Asset, opts: MoneyOptions = {}) =>
  (value: string, _values?: unknown, label = '金额') =>
    validateMoney(value, asset, label, opts);

/**
 * What the field lets through while typing: a leading minus, digits and one point. A minus where an
 * amount cannot be negative, and extra places, are let through on purpose — dropped, "-3.5" would
 * silently become 3.5, and a pasted "-1" vanish — and refused by the validation with a message
 * ("价格不能为负数", or how many places the asset has).
 */
export function acceptsTyping(text: string): boolean {
  return /^-?\d*(?:\.\d*)?$/.test(text);
}

export type MoneyFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type'> &
  MoneyOptions & {
    asset: Asset;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
    /** Shows the asset code at the end (default true). */
    showAsset?: boolean;
  };

/**
 * A whole number as typed with a Chinese IME, in ASCII: full-width digits, point and minus become ASCII,
 * the ends are trimmed; anything else stays, so the field's rule can refuse it ("1，5" is not 15).
 * For 库存 and 释放天数.
 */
export function wholeNumberText(text: string): string {
  return text
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[。．]/g, '.')
    .replace(/[－]/g, '-')
    .trim();
}

/** An amount as typed with a Chinese IME, in ASCII (wholeNumberText), with spaces and commas dropped. */
function asciiNumberText(text: string): string {
  return wholeNumberText(text).replace(/[\s,，]/g, '');
}

export function MoneyField({
  asset,
  value,
  onChange,
  // The options are the validation's (moneyRule); taken out so they do not reach the input element.
  allowNegative: _allowNegative,
  allowZero: _allowZero,
  showAsset = true,
  slotProps,
  ...rest
}: MoneyFieldProps) {
  const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const text = asciiNumberText(event.target.value);
    if (!acceptsTyping(text)) return;
    if (text !== event.target.value) event.target.value = text;
    onChange(event);
  };
  return (
    <TextField
      {...rest}
      value={value}
      onChange={handleChange}
      autoComplete="off"
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'decimal', ...(slotProps?.htmlInput as object) },
        input: showAsset
          ? { endAdornment: <InputAdornment position="end">{asset}</InputAdornment>, ...(slotProps?.input as object) }
          : slotProps?.input,
      }}
    />
  );
}

export default MoneyField;
