/**
 * Chinese texts for the DataGrid (the zhCN localeText through the theme). Pages that use a DataGrid
 * wrap their content in it (src/components/ListPage does); it lives here, not in the shell, so the
 * login route and the layout never load the MUI X packages. The date pickers carry their own texts
 * and dayjs locale (src/components/DayCalendar, loaded when a calendar is first opened).
 */
import { useMemo, type ReactNode } from 'react';
import { createTheme, ThemeProvider, useTheme } from '@mui/material/styles';
import { zhCN as dataGridZhCN } from '@mui/x-data-grid/locales';

export default function XLocalizationProvider({ children }: { children: ReactNode }) {
  const outer = useTheme();
  const theme = useMemo(() => createTheme(outer, dataGridZhCN), [outer]);
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
