import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@mui/material/styles';
import dayjs from 'dayjs';
import DayCalendar from '../../../src/components/DayCalendar';
import { theme } from '../../../src/theme';

jest.setTimeout(30_000);

describe('DayCalendar', () => {
  it('speaks Chinese (picker texts, dayjs in zh-cn with weeks from Monday) and picks a day', async () => {
    const onPick = jest.fn();
    render(
      <ThemeProvider theme={theme}>
        <DayCalendar value="2026-11-23" minDay="2026-11-03" onPick={onPick} />
      </ThemeProvider>,
    );
    expect(dayjs.locale()).toBe('zh-cn');
    expect(dayjs('2026-11-23').format('dddd')).toBe('星期一');
    expect(screen.getByRole('button', { name: '上个月' })).toBeInTheDocument();
    const grid = screen.getByRole('grid');
    expect(within(grid).getAllByRole('columnheader')[0]).toHaveAccessibleName('星期一');
    expect(within(grid).getByRole('gridcell', { name: '23' })).toHaveAttribute('aria-selected', 'true');
    expect(within(grid).getByRole('gridcell', { name: '2' })).toBeDisabled();
    await userEvent.click(within(grid).getByRole('gridcell', { name: '5' }));
    expect(onPick).toHaveBeenCalledWith('2026-11-05');
  });
});
