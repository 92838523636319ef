/**
 * A status as a small coloured chip. The maps live in domain/ beside each module's statuses: the
 * `map` of a `defineEnum` (`WithdrawStatus.map`, domain/enums.ts), where every value has its label.
 */
import Chip from '@mui/material/Chip';

export type StatusColor = 'default' | 'primary' | 'secondary' | 'error' | 'info' | 'success' | 'warning';
export interface StatusView {
  label: string;
  color: StatusColor;
}
export type StatusMap<K extends string | number = string | number> = Readonly<Record<K, StatusView>>;

export interface StatusChipProps<K extends string | number> {
  value: K | null | undefined;
  map: StatusMap<K>;
  size?: 'small' | 'medium';
  variant?: 'filled' | 'outlined';
}

export function StatusChip<K extends string | number>({
  value,
  map,
  size = 'small',
  variant = 'filled',
}: StatusChipProps<K>) {
  if (value === null || value === undefined) return <span>-</span>;
  const view = (map as Record<string | number, StatusView | undefined>)[value];
  // An unknown value is shown as is rather than hidden: it is a bug to notice, not to mask.
  return <Chip size={size} variant={variant} label={view?.label ?? String(value)} color={view?.color ?? 'default'} />;
}

export default StatusChip;
