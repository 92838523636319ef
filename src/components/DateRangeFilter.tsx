/**
 * A list's date range filter, bound to the filter draft of useListParams: `start` / `end` as
 * `YYYY-MM-DD` strings (the server reads them as Asia/Shanghai calendar days, the end day included).
 * Enter in either field searches.
 *
 *   <DateRangeFilter params={params} />                               // filters: { start: '', end: '' }
 *   <DateRangeFilter params={params} startName="paidStart" endName="paidEnd" startLabel="支付开始" />
 *
 * Each day is a plain text field (type `2026-11-23`) with a 选择日期 button. The calendar behind the
 * button (MUI X DateCalendar, dayjs in 'zh-cn': ./DayCalendar) is loaded only when it is first
 * opened, so a list page does not download the date pickers before its first row. The calendar does
 * not offer end days before the start, nor start days after the end.
 */
import { lazy, Suspense, useRef, useState, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import CalendarIcon from '@mui/icons-material/CalendarMonthOutlined';
import ClearIcon from '@mui/icons-material/Clear';
import { isDay } from '../../domain/time';
import type { FilterValues, ListParams } from './useListParams';

const loadCalendar = () => import('./DayCalendar');
const DayCalendar = lazy(loadCalendar);

export { isDay };

interface DayFieldProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** Earliest / latest day the calendar offers (`YYYY-MM-DD`, '' for none). */
  minDay?: string;
  maxDay?: string;
}

/**
 * One day. It keeps its own text while the user types (a half-typed date is not a filter yet, and
 * must not be wiped by the empty draft it produces) and follows the draft when it changes from
 * outside (重置, back/forward).
 */
function DayField({ label, value, onChange, minDay = '', maxDay = '' }: DayFieldProps) {
  const [local, setLocal] = useState({ value, input: value });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  let input = local.input;
  if (local.value !== value) {
    input = value;
    setLocal({ value, input });
  }
  const set = (next: string) => {
    const day = isDay(next) ? next : '';
    setLocal({ value: day, input: next });
    if (day !== value) onChange(day);
  };
  const invalid =
    input !== '' && (!isDay(input) || (minDay !== '' && input < minDay) || (maxDay !== '' && input > maxDay));
  const open = (event: MouseEvent<HTMLElement>) => {
    // The field's root (not the button) anchors the calendar, like the pickers' own popup.
    setAnchor(event.currentTarget.closest<HTMLElement>('.MuiFormControl-root') ?? event.currentTarget);
  };
  const openLabel = isDay(input) ? `选择日期，已选择${input}` : '选择日期';

  return (
    <>
      <TextField
        label={label}
        size="small"
        placeholder="年-月-日"
        value={input}
        inputRef={inputRef}
        error={invalid}
        onChange={(e) => set(e.target.value.trim())}
        sx={{ width: 170 }}
        slotProps={{
          htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10 },
          input: {
            endAdornment: (
              <InputAdornment position="end" sx={{ ml: 0 }}>
                {input ? (
                  <IconButton
                    size="small"
                    aria-label="清除"
                    onClick={() => {
                      set('');
                      // The button goes with the text: keep the focus in the field, not on the page.
                      inputRef.current?.focus();
                    }}
                    edge="end"
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                ) : null}
                <IconButton
                  size="small"
                  aria-label={openLabel}
                  aria-haspopup="dialog"
                  onClick={open}
                  // Start the download when the pointer or focus reaches the button, before the click.
                  onPointerEnter={() => void loadCalendar()}
                  onFocus={() => void loadCalendar()}
                  edge="end"
                >
                  <CalendarIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': label } }}
      >
        <Suspense
          fallback={
            <Box sx={{ width: 320, height: 334, display: 'grid', placeItems: 'center' }}>
              <CircularProgress size={28} aria-label="加载中" />
            </Box>
          }
        >
          <DayCalendar
            value={isDay(input) ? input : ''}
            minDay={minDay}
            maxDay={maxDay}
            onPick={(day) => {
              set(day);
              setAnchor(null);
            }}
          />
        </Suspense>
      </Popover>
    </>
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
    // Wraps on a phone: two fields side by side are wider than its screen.
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <DayField
        label={startLabel}
        value={start}
        maxDay={isDay(end) ? end : ''}
        onChange={(t) => params.setDraft(startName, t)}
      />
      <span aria-hidden>至</span>
      <DayField
        label={endLabel}
        value={end}
        minDay={isDay(start) ? start : ''}
        onChange={(t) => params.setDraft(endName, t)}
      />
    </Stack>
  );
}

export default DateRangeFilter;
