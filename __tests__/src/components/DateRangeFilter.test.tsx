import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { DateRangeFilter, toDay } from '../../../src/components/DateRangeFilter';
import { ListPage } from '../../../src/components/ListPage';
import { useListParams, type ListParams } from '../../../src/components/useListParams';

type Filters = { start: string; end: string };

function setup(url: string) {
  const seen: { current: ListParams<Filters> | null } = { current: null };
  function Page() {
    const params = useListParams<Filters>({ filters: { start: '', end: '' } });
    seen.current = params;
    return (
      <ListPage params={params} columns={[]} data={{ list: [], total: 0 }}>
        <DateRangeFilter params={params} />
      </ListPage>
    );
  }
  const router = createMemoryRouter([{ path: '/list', element: <Page /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return { params: () => seen.current as ListParams<Filters>, search: () => router.state.location.search };
}

/** The hidden input each v9 picker field keeps in sync with its value. */
const hiddenValues = () =>
  Array.from(
    screen
      .getByRole('search')
      .querySelectorAll<HTMLInputElement>('.MuiPickersInputBase-root input[aria-hidden="true"]'),
  ).map((i) => i.value);

// MUI X renders slowly on a shared CI core: give each test room beyond the default 5 s.
jest.setTimeout(30_000);

describe('DateRangeFilter', () => {
  it('shows the dates of the URL in Chinese-labelled fields', () => {
    setup('/list?start=2026-11-01&end=2026-11-23');
    expect(screen.getByRole('group', { name: '开始日期' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: '结束日期' })).toBeInTheDocument();
    expect(hiddenValues()).toEqual(['2026-11-01', '2026-11-23']);
  });

  it('writes a day picked in the calendar as YYYY-MM-DD and searches with it', async () => {
    const u = userEvent.setup();
    const { params, search } = setup('/list?start=2026-11-01');
    const endGroup = screen.getByRole('group', { name: '结束日期' }).closest('.MuiFormControl-root') as HTMLElement;
    await u.click(within(endGroup).getByRole('button', { name: /选择日期/ }));
    const calendar = within(await screen.findByRole('dialog')).getByRole('grid');
    // The month shown is the start's month (the end is bounded below by the start): pick the 15th.
    await u.click(within(calendar).getByRole('gridcell', { name: '15' }));
    expect(params().draft).toEqual({ start: '2026-11-01', end: '2026-11-15' });
    await u.click(screen.getByRole('button', { name: '搜索' }));
    expect(search()).toBe('?start=2026-11-01&end=2026-11-15');
    expect(params().queryArgs).toEqual({ page: 1, size: 20, start: '2026-11-01', end: '2026-11-15' });
  });

  it('does not offer end days before the start', async () => {
    const u = userEvent.setup();
    setup('/list?start=2026-11-10');
    const endGroup = screen.getByRole('group', { name: '结束日期' }).closest('.MuiFormControl-root') as HTMLElement;
    await u.click(within(endGroup).getByRole('button', { name: /选择日期/ }));
    const calendar = within(await screen.findByRole('dialog')).getByRole('grid');
    expect(within(calendar).getByRole('gridcell', { name: '9' })).toBeDisabled();
    expect(within(calendar).getByRole('gridcell', { name: '10' })).toBeEnabled();
  });

  it('empties both fields on 重置', async () => {
    const { params } = setup('/list?start=2026-11-01&end=2026-11-02');
    await userEvent.click(screen.getByRole('button', { name: '重置' }));
    expect(params().filters).toEqual({ start: '', end: '' });
    expect(hiddenValues()).toEqual(['', '']);
  });

  it('searches on Enter in a date field', async () => {
    const { search } = setup('/list?page=2&start=2026-11-01');
    const section = within(screen.getByRole('group', { name: '开始日期' })).getAllByRole('spinbutton')[0];
    act(() => {
      fireEvent.keyDown(section, { key: 'Enter' });
    });
    expect(search()).toBe('?start=2026-11-01');
  });
});

describe('toDay', () => {
  it('accepts only real YYYY-MM-DD days', () => {
    expect(toDay('2026-02-28')?.format('YYYY-MM-DD')).toBe('2026-02-28');
    expect(toDay('2026-02-30')).toBeNull();
    expect(toDay('2026-2-3')).toBeNull();
    expect(toDay('')).toBeNull();
  });
});
