/**
 * Two date pickers for a list's date range filter, bound to the filter draft of useListParams:
 * `start` / `end` as `YYYY-MM-DD` strings (the server reads them as Asia/Shanghai calendar days,
 * the end day included). The end cannot precede the start. Enter in either field searches.
 *
 *   <DateRangeFilter params={params} />                               // filters: { start: '', end: '' }
 *   <DateRangeFilter params={params} startName="paidStart" endName="paidEnd" startLabel="支付开始" />
 */
import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import Stack from '@mui/material/Stack';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { zhCN } from '@mui/x-date-pickers/locales';
import type { FilterValues, ListParams } from './useListParams';

export const DATE_FORMAT = 'YYYY-MM-DD';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const pickerTexts = zhCN.components.MuiLocalizationProvider.defaultProps.localeText;

/** '2026-11-23' → a Dayjs of that day; anything else → null. */
export function toDay(text: string | undefined): Dayjs | null {
  if (!text || !DAY.test(text)) return null;
  const day = dayjs(text);
  return day.isValid() && day.format(DATE_FORMAT) === text ? day : null;
}

interface DayFieldProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  minDate?: Dayjs | null;
  maxDate?: Dayjs | null;
}

/**
 * One picker. It keeps its own Dayjs while the user types (a half-typed date is not a filter yet,
 * and must not be wiped by the empty draft it produces) and follows the draft when it changes from
 * outside (重置, back/forward).
 */
function DayField({ label, value, onChange, minDate, maxDate }: DayFieldProps) {
  const [local, setLocal] = useState<{ text: string; day: Dayjs | null }>(() => ({ text: value, day: toDay(value) }));
  let day = local.day;
  if (local.text !== value) {
    day = toDay(value);
    setLocal({ text: value, day });
  }
  return (
    <DatePicker
      label={label}
      value={day}
      format={DATE_FORMAT}
      minDate={minDate ?? undefined}
      maxDate={maxDate ?? undefined}
      onChange={(next) => {
        const text = next && next.isValid() ? next.format(DATE_FORMAT) : '';
        setLocal({ text, day: next });
        onChange(text);
      }}
      slotProps={{ textField: { size: 'small', sx: { width: 170 } }, field: { clearable: true } }}
    />
  );
}

export interface DateRangeFilterProps<F extends FilterValues> {
  params: ListParams<F>;
  startName?: keyof F & string;
  endName?: keyof F & string;
  startLabel?: string;
  endLabel?: string;
}

export function DateRangeFilter<F extends FilterValues>({
  params,
  startName = 'start' as keyof F & string,
  endName = 'end' as keyof F & string,
  startLabel = '开始日期',
  endLabel = '结束日期',
}: DateRangeFilterProps<F>) {
  const start = params.draft[startName] ?? '';
  const end = params.draft[endName] ?? '';
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="zh-cn" localeText={pickerTexts}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <DayField
          label={startLabel}
          value={start}
          maxDate={toDay(end)}
          onChange={(t) => params.setDraft(startName, t)}
        />
        <span aria-hidden>至</span>
        <DayField label={endLabel} value={end} minDate={toDay(start)} onChange={(t) => params.setDraft(endName, t)} />
      </Stack>
    </LocalizationProvider>
  );
}

export default DateRangeFilter;
