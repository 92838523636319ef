/**
 * Chinese texts for the MUI X packages: the DataGrid (zhCN localeText through the theme) and the
 * date pickers (zhCN texts + dayjs in 'zh-cn'). Pages that use a DataGrid or a picker wrap their
 * content in it (src/components/ListPage does); it lives here, not in the shell, so the login route
 * and the layout never load the MUI X packages.
 */
import { useMemo, type ReactNode } from 'react';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { createTheme, ThemeProvider, useTheme } from '@mui/material/styles';
import { zhCN as dataGridZhCN } from '@mui/x-data-grid/locales';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { zhCN as pickersZhCN } from '@mui/x-date-pickers/locales';

export const DAYJS_LOCALE = 'zh-cn';
dayjs.locale(DAYJS_LOCALE);

export default function XLocalizationProvider({ children }: { children: ReactNode }) {
  const outer = useTheme();
  const theme = useMemo(() => createTheme(outer, dataGridZhCN, pickersZhCN), [outer]);
  return (
    <ThemeProvider theme={theme}>
      <LocalizationProvider
        dateAdapter={AdapterDayjs}
        adapterLocale={DAYJS_LOCALE}
        localeText={pickersZhCN.components.MuiLocalizationProvider.defaultProps.localeText}
      >
        {children}
      </LocalizationProvider>
    </ThemeProvider>
  );
}
