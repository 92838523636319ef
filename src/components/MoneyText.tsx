/**
 * An amount as tables show it: thousands separators and the asset's display places, the exact value
 * (with its asset) in a tooltip. The value stays a decimal string from the wire to the screen.
 */
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { AssetDisplayPlaces, type Asset } from '../../domain/assets';
import { displayMoney } from '../../domain/money';

export interface MoneyTextProps {
  /** Decimal string as sent by the server ("12.5", "-0.000001"); null/undefined shows "-". */
  value: string | null | undefined;
  asset: Asset;
  /** A balance change: negative in red, positive in green with a leading "+". */
  signed?: boolean;
  /** Appends the asset code ("12.50 USDT"). */
  showAsset?: boolean;
}

const ZERO = /^[+-]?0*(?:\.0*)?$/;

export function isNegativeAmount(value: string): boolean {
  return value.trim().startsWith('-') && !ZERO.test(value.trim());
}
export function isPositiveAmount(value: string): boolean {
  const v = value.trim();
  return !v.startsWith('-') && /\d/.test(v) && !ZERO.test(v);
}

/** The text MoneyText shows, for places that need a string (exports, summaries, aria labels). */
export function formatMoneyText(value: string, asset: Asset, opts: { signed?: boolean; showAsset?: boolean } = {}) {
  const text = displayMoney(value.trim(), AssetDisplayPlaces[asset]);
  const sign = opts.signed && isPositiveAmount(value) ? '+' : '';
  return `${sign}${text}${opts.showAsset ? ` ${asset}` : ''}`;
}

export function MoneyText({ value, asset, signed = false, showAsset = false }: MoneyTextProps) {
  if (value === null || value === undefined || value === '') return <span>-</span>;
  const color = signed
    ? isNegativeAmount(value)
      ? 'error.main'
      : isPositiveAmount(value)
        ? 'success.main'
        : undefined
    : undefined;
  // Places 0: every significant digit, nothing padded: the exact amount.
  const full = `${displayMoney(value.trim(), 0)} ${asset}`;
  return (
    <Tooltip title={full} describeChild>
      <Box component="span" sx={{ color, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        {formatMoneyText(value, asset, { signed, showAsset })}
      </Box>
    </Tooltip>
  );
}

export default MoneyText;
