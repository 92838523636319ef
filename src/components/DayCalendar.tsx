/**
 * The calendar of a DateRangeFilter day field: MUI X DateCalendar with the zhCN picker texts and
 * dayjs in 'zh-cn' (weeks start on Monday, 星期一…). Loaded on demand (React.lazy in
 * ./DateRangeFilter): the date pickers and dayjs stay out of a list page's first download.
 *
 *   <DayCalendar value="2026-11-23" minDay="2026-11-01" maxDay="" onPick={(day) => …} />
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { zhCN } from '@mui/x-date-pickers/locales';

export const DAYJS_LOCALE = 'zh-cn';
dayjs.locale(DAYJS_LOCALE);

const DAY_FORMAT = 'YYYY-MM-DD';
const pickerTexts = zhCN.components.MuiLocalizationProvider.defaultProps.localeText;

const toDayjs = (day: string) => (day ? dayjs(day) : undefined);

export interface DayCalendarProps {
  /** The chosen day (`YYYY-MM-DD`), '' for none. */
  value: string;
  /** Earliest / latest day offered, '' for no bound. */
  minDay?: string;
  maxDay?: string;
  /** A day was clicked (or chosen with Enter): `YYYY-MM-DD`. */
  onPick: (day: string) => void;
}

export default function DayCalendar({ value, minDay = '', maxDay = '', onPick }: DayCalendarProps) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={DAYJS_LOCALE} localeText={pickerTexts}>
      <DateCalendar
        autoFocus
        value={toDayjs(value) ?? null}
        minDate={toDayjs(minDay)}
        maxDate={toDayjs(maxDay)}
        // With no day chosen, an end's calendar opens on its start's month (a range is picked from its
        // start onwards), not on today's: MUI would show today whenever the start lies in a past month.
        referenceDate={toDayjs(minDay)}
        onChange={(next, state) => {
          // Picking a year or month only moves the calendar; a day ends the choice.
          if (next && next.isValid() && state !== 'partial') onPick(next.format(DAY_FORMAT));
        }}
      />
    </LocalizationProvider>
  );
}
