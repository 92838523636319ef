/**
 * The filter bar's ID field (a record's exact id, the target of 账单 关联 links): only digits filter;
 * anything else is marked rather than silently ignored. The list's filters need an `id` entry.
 */
import TextField from '@mui/material/TextField';
import type { FilterValues, ListParams } from './useListParams';

const DIGITS = /^\s*\d*\s*$/;

export function IdFilter<F extends FilterValues & { id: string }>({ params }: { params: ListParams<F> }) {
  const valid = DIGITS.test(params.draft.id);
  return (
    <TextField
      label="ID"
      size="small"
      sx={{ width: 110 }}
      {...params.field('id')}
      error={!valid}
      title={valid ? undefined : 'ID 只能是数字'}
    />
  );
}
