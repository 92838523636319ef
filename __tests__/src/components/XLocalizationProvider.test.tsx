import { render, screen } from '@testing-library/react';
import { ThemeProvider } from '@mui/material/styles';
import { DataGrid } from '@mui/x-data-grid';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import XLocalizationProvider from '../../../src/components/XLocalizationProvider';
import { theme } from '../../../src/theme';

describe('XLocalizationProvider', () => {
  it('gives the DataGrid its Chinese texts', async () => {
    render(
      <ThemeProvider theme={theme}>
        <XLocalizationProvider>
          <div style={{ height: 300, width: 600 }}>
            <DataGrid columns={[{ field: 'name', headerName: '名称' }]} rows={[]} />
          </div>
        </XLocalizationProvider>
      </ThemeProvider>,
    );
    expect(await screen.findByText('没有数据。')).toBeInTheDocument();
  });

  it('gives the date pickers Chinese texts and dayjs the zh-cn locale', () => {
    render(
      <ThemeProvider theme={theme}>
        <XLocalizationProvider>
          <DatePicker label="开始日期" defaultValue={dayjs('2026-11-23')} />
        </XLocalizationProvider>
      </ThemeProvider>,
    );
    expect(dayjs.locale()).toBe('zh-cn');
    expect(dayjs('2026-11-23').format('dddd')).toBe('星期一');
    expect(screen.getByRole('button', { name: /选择日期/ })).toBeInTheDocument();
  });
});
