import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { DateRangeFilter, isDay } from '../../../src/components/DateRangeFilter';
import { ListPage } from '../../../src/components/ListPage';
import { useListParams, type ListParams } from '../../../src/components/useListParams';
import { createAppStore } from '../../../src/store';

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
  render(
    <Provider store={createAppStore(undefined, null)}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { params: () => seen.current as ListParams<Filters>, search: () => router.state.location.search };
}

const field = (name: string) => screen.getByRole('textbox', { name });
/** The 选择日期 button of a field, which opens its calendar. */
const calendarButton = (name: string) =>
  within(field(name).closest('.MuiFormControl-root') as HTMLElement).getByRole('button', { name: /选择日期/ });

// MUI X renders slowly on a shared CI core: give each test room beyond the default 5 s.
jest.setTimeout(30_000);

describe('DateRangeFilter', () => {
  it('shows the dates of the URL in Chinese-labelled fields', () => {
    setup('/list?start=2026-11-01&end=2026-11-23');
    expect(field('开始日期')).toHaveValue('2026-11-01');
    expect(field('结束日期')).toHaveValue('2026-11-23');
    expect(calendarButton('开始日期')).toHaveAccessibleName('选择日期，已选择2026-11-01');
  });

  it('takes a typed day; a half-typed or impossible one is no filter yet and is marked', async () => {
    const u = userEvent.setup();
    const { params } = setup('/list');
    await u.type(field('开始日期'), '2026-11-0');
    expect(field('开始日期')).toHaveValue('2026-11-0');
    expect(field('开始日期')).toHaveAttribute('aria-invalid', 'true');
    expect(params().draft.start).toBe('');
    await u.type(field('开始日期'), '2');
    expect(params().draft.start).toBe('2026-11-02');
    expect(field('开始日期')).toHaveAttribute('aria-invalid', 'false');
    await u.clear(field('结束日期'));
    await u.type(field('结束日期'), '2026-02-30');
    expect(params().draft.end).toBe('');
    expect(field('结束日期')).toHaveAttribute('aria-invalid', 'true');
  });

  it('loads the calendar on demand, writes a picked day as YYYY-MM-DD and searches with it', async () => {
    const u = userEvent.setup();
    const { params, search } = setup('/list?start=2026-11-01');
    await u.click(calendarButton('结束日期'));
    const calendar = await within(await screen.findByRole('dialog', { name: '结束日期' })).findByRole('grid');
    // The month shown is the start's month (the end is bounded below by the start): pick the 15th.
    await u.click(within(calendar).getByRole('gridcell', { name: '15' }));
    expect(params().draft).toEqual({ start: '2026-11-01', end: '2026-11-15' });
    expect(field('结束日期')).toHaveValue('2026-11-15');
    await u.click(screen.getByRole('button', { name: '搜索' }));
    expect(search()).toBe('?start=2026-11-01&end=2026-11-15');
    expect(params().queryArgs).toEqual({ page: 1, size: 20, start: '2026-11-01', end: '2026-11-15' });
  });

  it('does not offer end days before the start', async () => {
    const u = userEvent.setup();
    setup('/list?start=2026-11-10');
    await u.click(calendarButton('结束日期'));
    const calendar = await within(await screen.findByRole('dialog', { name: '结束日期' })).findByRole('grid');
    expect(within(calendar).getByRole('gridcell', { name: '9' })).toBeDisabled();
    expect(within(calendar).getByRole('gridcell', { name: '10' })).toBeEnabled();
  });

  it('empties both fields on 重置, and one with its 清除 button', async () => {
    const u = userEvent.setup();
    const { params } = setup('/list?start=2026-11-01&end=2026-11-02');
    await u.click(
      within(field('结束日期').closest('.MuiFormControl-root') as HTMLElement).getByRole('button', { name: '清除' }),
    );
    expect(params().draft).toEqual({ start: '2026-11-01', end: '' });
    expect(field('结束日期')).toHaveValue('');
    expect(field('结束日期')).toHaveFocus();
    await u.click(screen.getByRole('button', { name: '重置' }));
    expect(params().filters).toEqual({ start: '', end: '' });
    expect(field('开始日期')).toHaveValue('');
  });

  it('searches on Enter in a date field', () => {
    const { search } = setup('/list?page=2&start=2026-11-01');
    act(() => {
      fireEvent.keyDown(field('开始日期'), { key: 'Enter' });
    });
    expect(search()).toBe('?start=2026-11-01');
  });
});

describe('isDay', () => {
  it('accepts only real YYYY-MM-DD days', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
    expect(isDay('')).toBe(false);
    expect(isDay(undefined)).toBe(false);
  });
});
