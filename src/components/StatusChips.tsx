/**
 * The status filter as chips (全部 and one per status) in a list's toolbar: a click searches at once.
 * The chip of the chosen status takes its StatusChip colour.
 */
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { DefinedEnum } from '../../domain/enums';

export default function StatusChips<V extends number>({
  options,
  value,
  onSelect,
}: {
  options: DefinedEnum<string, V>;
  /** The filter's value: '' for all. */
  value: string;
  onSelect: (value: string) => void;
}) {
  return (
    <Stack direction="row" spacing={1} aria-label="状态筛选" role="group" sx={{ alignItems: 'center' }}>
      <Chip
        label="全部"
        color={value === '' ? 'primary' : 'default'}
        variant={value === '' ? 'filled' : 'outlined'}
        onClick={() => onSelect('')}
      />
      {options.values.map((v) => (
        <Chip
          key={v}
          label={options.label(v)}
          color={value === String(v) ? options.map[v].color : 'default'}
          variant={value === String(v) ? 'filled' : 'outlined'}
          onClick={() => onSelect(String(v))}
        />
      ))}
    </Stack>
  );
}
