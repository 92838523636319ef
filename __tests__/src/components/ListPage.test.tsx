import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TextField from '@mui/material/TextField';
import Button from '@mui/material/Button';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ListPage, totalsText, withDefaultPins, type ListData } from '../../../src/components/ListPage';
import type { Column } from '../../../src/components/table/columnTypes';
import { isEndCursor } from '../../../src/components/table/TablePager';
import { actionsColumn } from '../../../src/components/columns';
import { createAppStore } from '../../../src/store';
import { loggedIn } from '../../../src/store/authSlice';
import { useListParams, type ListQueryArgs } from '../../../src/components/useListParams';
import { useRowSelection } from '../../../src/components/useRowSelection';

type Row = { id: number; username: string; amount: string };
type Filters = { username: string };
type Sum = { amount: string };

const ALL: Row[] = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  username: `user${i + 1}`,
  amount: `${i + 1}.5`,
}));

/** Stands in for a generated query hook: answers from the args, records each one. */
function fakeQuery(args: ListQueryArgs<Filters>, calls: ListQueryArgs<Filters>[]): ListData<Row, Sum> {
  calls.push(args);
  let rows = ALL.filter((r) => !args.username || r.username.startsWith(String(args.username)));
  if (args.sort === 'id' && args.order === 'desc') rows = [...rows].reverse();
  const start = (args.page - 1) * args.size;
  return {
    list: rows.slice(start, start + args.size),
    total: rows.length,
    page: args.page,
    size: args.size,
    sum: { amount: '12345.67' },
  };
}

const columns: Column<Row>[] = [
  { field: 'id', headerName: 'ID', sortable: true, width: 80 },
  { field: 'username', headerName: '用户名' },
  { field: 'amount', headerName: '金额', width: 120 },
  actionsColumn<Row>((r) => <Button size="small">编辑{r.id}</Button>, { width: 120 }),
];

/** The app's store with a signed-in manager (column settings are kept per manager). */
function storeFor(username = 'admin') {
  const store = createAppStore(undefined, window.localStorage);
  store.dispatch(loggedIn({ token: 't', username }));
  return store;
}
const withStore = (ui: ReactElement, store = storeFor()) => <Provider store={store}>{ui}</Provider>;

function setup(
  url = '/list',
  opts: {
    empty?: boolean;
    pending?: boolean;
    fetching?: boolean;
    selectable?: boolean;
    stuckOnPage1?: boolean;
    cursors?: boolean;
    /** The total a `cursors` list answers (a million unless given). */
    total?: number;
    store?: ReturnType<typeof storeFor>;
  } = {},
) {
  const calls: ListQueryArgs<Filters>[] = [];
  const refreshed = { n: 0 };
  const picked: { ids: number[] } = { ids: [] };
  function Page() {
    const params = useListParams<Filters>({ filters: { username: '' } });
    const selection = useRowSelection<number>();
    picked.ids = selection.ids;
    const data = opts.pending
      ? undefined
      : opts.empty
        ? { list: [], total: 0, page: 1, size: 20 }
        : opts.stuckOnPage1
          ? // the next page still loading: the hook keeps answering page 1 with page 1's cursor
            { ...fakeQuery({ ...params.queryArgs, page: 1 }, calls), next: '20_20' }
          : opts.cursors
            ? // a million rows: every page answers the first 20 with cursors
              {
                ...fakeQuery({ ...params.queryArgs, page: 1 }, calls),
                page: params.page,
                total: opts.total ?? 1_000_000,
                next: '1_1',
                prev: '2_2',
              }
            : fakeQuery(params.queryArgs, calls);
    return (
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={opts.fetching}
        label="测试列表"
        totals={(sum: Sum) => [{ label: '合计金额', amount: sum.amount, asset: 'USDT' }]}
        selection={opts.selectable ? selection : undefined}
        toolbar={<Button>新增</Button>}
        onRefresh={() => (refreshed.n += 1)}
      >
        <TextField label="用户名" {...params.field('username')} />
      </ListPage>
    );
  }
  const router = createMemoryRouter([{ path: '/list', element: <Page /> }], { initialEntries: [url] });
  const store = opts.store ?? storeFor();
  const view = render(withStore(<RouterProvider router={router} />, store));
  const search = () => router.state.location.search;
  return { router, calls, search, picked, refreshed, view, store, last: () => calls[calls.length - 1] };
}

const user = () => userEvent.setup();
const bodyRows = () => screen.getAllByRole('row').filter((r) => r.getAttribute('data-id'));

beforeEach(() => window.localStorage.clear());

describe('ListPage', () => {
  it('shows one page of rows, the toolbar and the totals line with the total count', () => {
    setup();
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByRole('button', { name: '新增' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计金额：12,345.67 USDT，共 45 条');
    expect(screen.getByRole('table', { name: '测试列表' })).toBeInTheDocument();
    expect(screen.getByText('第 1–20 条，共 45 条')).toBeInTheDocument();
    expect(screen.getByText('共 3 页')).toBeInTheDocument();
  });

  it('searches on Enter in a filter field and writes the filter to the URL', async () => {
    const { search, last } = setup('/list?page=2');
    await user().type(screen.getByLabelText('用户名'), 'user1{Enter}');
    expect(search()).toBe('?username=user1');
    expect(last()).toEqual({ page: 1, size: 20, username: 'user1' });
    expect(bodyRows()).toHaveLength(11); // user1, user10..user19
  });

  it('searches with the 搜索 button and clears everything with 重置', async () => {
    const u = user();
    const { search, last } = setup();
    await u.type(screen.getByLabelText('用户名'), 'user4');
    await u.click(screen.getByRole('button', { name: '搜索' }));
    expect(last()).toEqual({ page: 1, size: 20, username: 'user4' });
    await u.click(screen.getByRole('button', { name: '重置' }));
    expect(search()).toBe('');
    expect(screen.getByLabelText('用户名')).toHaveValue('');
    expect(last()).toEqual({ page: 1, size: 20 });
  });

  it('asks the server again on 搜索 and 重置 with unchanged filters and on 刷新, not when the filters changed', async () => {
    const u = user();
    const { refreshed, search } = setup();
    await u.click(screen.getByRole('button', { name: '搜索' }));
    expect(refreshed.n).toBe(1);
    await u.click(screen.getByRole('button', { name: '重置' }));
    expect(refreshed.n).toBe(2);
    await u.click(screen.getByRole('button', { name: '刷新' }));
    expect(refreshed.n).toBe(3);
    await u.type(screen.getByLabelText('用户名'), 'user4{Enter}');
    expect(search()).toBe('?username=user4');
    expect(refreshed.n).toBe(3); // the new filter is a new query already
    await u.click(screen.getByRole('button', { name: '搜索' }));
    expect(refreshed.n).toBe(4);
  });

  it('asks for the next page when the pager moves and restores it on back', async () => {
    const { search, last, router } = setup();
    await user().click(screen.getByRole('button', { name: /下一页/ }));
    expect(search()).toBe('?page=2');
    expect(last()).toEqual({ page: 2, size: 20 });
    expect(screen.getByRole('cell', { name: 'user21' })).toBeInTheDocument();
    await act(() => router.navigate(-1));
    expect(last()).toEqual({ page: 1, size: 20 });
  });

  it('takes 下一页 from the cursor of the page on screen only, not from an answer still for another page', async () => {
    const { search } = setup('/list', { stuckOnPage1: true, fetching: true });
    const u = user();
    await u.click(screen.getByRole('button', { name: /下一页/ }));
    expect(search()).toBe('?page=2&after=20_20');
    await u.click(screen.getByRole('button', { name: /下一页/ }));
    expect(search()).toBe('?page=3');
  });

  it('keeps the page of a reloaded URL while the grid mounts', () => {
    const { search, last } = setup('/list?page=3&size=10');
    expect(search()).toBe('?page=3&size=10');
    expect(last()).toEqual({ page: 3, size: 10 });
    expect(screen.getByRole('cell', { name: 'user21' })).toBeInTheDocument();
  });

  it('does not move a reloaded page back to 1 while the first answer is pending', () => {
    const { search } = setup('/list?page=3&size=10', { pending: true, fetching: true });
    expect(search()).toBe('?page=3&size=10');
  });

  it('does not search on an Enter that confirms an IME composition', () => {
    const { last } = setup();
    const input = screen.getByLabelText('用户名');
    fireEvent.change(input, { target: { value: '张' } });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(last()).toEqual({ page: 1, size: 20 });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(last()).toEqual({ page: 1, size: 20, username: '张' });
  });

  it('moves a page past the end to the last page, replacing the history entry', async () => {
    const { search, router, last } = setup('/list?page=9');
    await waitFor(() => expect(search()).toBe('?page=3'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(last()).toEqual({ page: 3, size: 20 });
    expect(bodyRows()).toHaveLength(5);
  });

  it('asks for a server sort when a sortable header is clicked, and not for other columns', async () => {
    const u = user();
    const { last, search } = setup('/list?page=2');
    await u.click(screen.getByRole('columnheader', { name: /用户名/ }));
    expect(last()).toEqual({ page: 2, size: 20 });
    expect(within(screen.getByRole('columnheader', { name: /用户名/ })).queryByRole('button')).toBeNull();
    const idHeader = () => within(screen.getByRole('columnheader', { name: /ID/ })).getByRole('button');
    await u.click(idHeader());
    expect(last()).toEqual({ page: 1, size: 20, sort: 'id', order: 'asc' });
    await u.click(idHeader());
    expect(last()).toEqual({ page: 1, size: 20, sort: 'id', order: 'desc' });
    expect(search()).toBe('?sort=id&order=desc');
    expect(screen.getByRole('columnheader', { name: /ID/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(bodyRows()[0]).getByRole('cell', { name: 'user45' })).toBeInTheDocument();
  });

  it('changes the page size from the pager options 10/20/50/100', async () => {
    const u = user();
    const { last } = setup('/list?page=2');
    await u.click(screen.getByRole('combobox', { name: /每页条数/ }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['10 条/页', '20 条/页', '50 条/页', '100 条/页']);
    await u.click(screen.getByRole('option', { name: '50 条/页' }));
    expect(last()).toEqual({ page: 1, size: 50 });
    expect(bodyRows()).toHaveLength(45);
  });

  it('shows - in an empty cell, after the column’s own formatter, and leaves rendered cells alone', () => {
    function Page() {
      const params = useListParams<Filters>({ filters: { username: '' } });
      const cols: Column<Row>[] = [
        { field: 'id', headerName: 'ID' },
        { field: 'username', headerName: '用户名' },
        { field: 'amount', headerName: '金额', valueFormatter: (v: string) => (v === '0' ? '' : v) },
        { field: 'mark', headerName: '标记', renderCell: () => null },
      ];
      const list = [
        { id: 1, username: '', amount: '0' },
        { id: 2, username: 'bob', amount: '3' },
      ];
      return <ListPage params={params} columns={cols} data={{ list, total: 2, page: 1, size: 20 }} />;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Page /> }], { initialEntries: ['/list'] });
    render(withStore(<RouterProvider router={router} />));
    const cells = (id: number) =>
      within(screen.getAllByRole('row').find((r) => r.getAttribute('data-id') === String(id))!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(1)).toEqual(['1', '-', '-', '']);
    expect(cells(2)).toEqual(['2', 'bob', '3', '']);
  });

  it('shows 暂无数据 for an empty list', () => {
    setup('/list', { empty: true });
    expect(screen.getByText('暂无数据')).toBeInTheDocument();
  });

  it('shows a progress bar while fetching', () => {
    setup('/list', { fetching: true });
    expect(screen.getAllByRole('progressbar').length).toBeGreaterThan(0);
  });

  it('keeps selected rows across pages for batch actions', async () => {
    const u = user();
    const { picked } = setup('/list', { selectable: true });
    await u.click(within(bodyRows()[0]).getByRole('checkbox'));
    await u.click(screen.getByRole('button', { name: /下一页/ }));
    await u.click(within(bodyRows()[1]).getByRole('checkbox'));
    expect(picked.ids).toEqual([1, 22]);
    expect(screen.getByText('已选择 2 条')).toBeInTheDocument();
    // The header box selects (and unselects) the whole page on screen, keeping the other pages' picks.
    await u.click(screen.getByRole('checkbox', { name: '选择本页全部行' }));
    expect(picked.ids).toHaveLength(21);
    await u.click(screen.getByRole('checkbox', { name: '选择本页全部行' }));
    expect(picked.ids).toEqual([1]);
  });

  it('pins ID left and 操作 right: sticky cells, in view while the table scrolls sideways', () => {
    setup();
    const row = bodyRows()[0];
    const cell = (field: string) => row.querySelector(`td[data-field="${field}"]`)!;
    expect(cell('id')).toHaveStyle({ position: 'sticky', left: '0px' });
    expect(cell('__actions')).toHaveStyle({ position: 'sticky', right: '0px' });
    expect(cell('username')).not.toHaveStyle({ position: 'sticky' });
    expect(withDefaultPins(columns).map((c) => c.pin)).toEqual(['left', undefined, undefined, 'right']);
    expect(
      withDefaultPins<{ id: number; uid: string }>([
        { field: 'id', headerName: 'ID', width: 80 },
        { field: 'uid', headerName: '会员', width: 140 },
      ]).map((c) => c.pin),
    ).toEqual(['left', 'left']);
  });

  it('jumps to a typed page number, and refuses one out of range with a message', async () => {
    const u = user();
    const { search, last } = setup();
    const jump = screen.getByRole('textbox', { name: '跳至页码' });
    await u.type(jump, '3{Enter}');
    expect(search()).toBe('?page=3');
    expect(last()).toEqual({ page: 3, size: 20 });
    await u.type(jump, '9{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('请输入 1–3 之间的页码');
    expect(search()).toBe('?page=3');
    await u.click(screen.getByRole('button', { name: '首页' }));
    expect(search()).toBe('');
    await u.click(screen.getByRole('button', { name: '末页' }));
    expect(search()).toBe('?page=3');
  });

  it('past the page-number window goes to 末页 by reading from the end, and offers no deep page numbers', async () => {
    const u = user();
    const { search } = setup('/list', { cursors: true, total: 999_990 });
    expect(screen.getByText('共 50,000 页')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '第 50000 页' })).toBeEnabled();
    await u.click(screen.getByRole('button', { name: '末页' }));
    expect(search()).toBe('?page=50000&before=-9007199254740991_0');
    expect(screen.getByText('第 999,971–999,990 条，共 999,990 条')).toBeInTheDocument();
    await u.type(screen.getByRole('textbox', { name: '跳至页码' }), '20000{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('按页码只能跳到前 501 页');
    expect(search()).toBe('?page=50000&before=-9007199254740991_0');
    await u.click(screen.getByRole('button', { name: /上一页/ }));
    expect(search()).toBe('?page=49999&before=2_2');
  });

  it.each(['0_0', '9007199254740991_9007199254740991'])(
    'reads a 末页 link bookmarked with an older end cursor (before=%s) as the end',
    (cursor) => {
      // The last page holds the list's last 20 rows, counted back from its total.
      setup(`/list?page=50000&before=${cursor}`, { cursors: true, total: 999_990 });
      expect(screen.getByText('第 999,971–999,990 条，共 999,990 条')).toBeInTheDocument();
    },
  );

  it('tells an end cursor from a row cursor', () => {
    for (const c of ['0_0', '-9007199254740991_0', '9007199254740991_0', '5_00']) expect(isEndCursor(c)).toBe(true);
    for (const c of [undefined, '', '2_2', '0_10', '-3_1', '9007199254740991_1']) expect(isEndCursor(c)).toBe(false);
  });

  it('remembers hidden columns, their order, density and widths per manager', async () => {
    const u = user();
    const first = setup();
    await u.click(screen.getByRole('button', { name: '列设置' }));
    const panel = screen.getByRole('dialog', { name: '列设置' });
    await u.click(within(panel).getByRole('checkbox', { name: '显示「金额」列' }));
    expect(within(panel).getByRole('checkbox', { name: '显示「操作」列' })).toBeDisabled();
    await u.click(within(panel).getByRole('button', { name: '「用户名」下移' }));
    await u.click(within(panel).getByRole('button', { name: '紧凑' }));
    await u.keyboard('{Escape}');
    const headers = () => screen.getAllByRole('columnheader').map((h) => h.getAttribute('data-field'));
    expect(headers()).toEqual(['id', 'username', '__actions']);
    first.view.unmount();

    // The same manager finds it again; another manager has his own (the defaults).
    const second = setup();
    expect(headers()).toEqual(['id', 'username', '__actions']);
    second.view.unmount();
    setup('/list', { store: storeFor('other') });
    expect(headers()).toEqual(['id', 'username', 'amount', '__actions']);
    const stored = JSON.parse(window.localStorage.getItem('lz-admin-prefs:admin') ?? '{}');
    expect(stored['table:测试列表']).toMatchObject({
      hidden: ['amount'],
      order: ['amount', 'username'],
      density: 'compact',
    });
  });
});

describe('totalsText', () => {
  it('joins the amounts and the count in Chinese', () => {
    expect(
      totalsText(
        [
          { label: '合计金额', amount: '1000000', asset: 'USDT' },
          { label: '手续费', amount: '2.5', asset: 'LZ' },
        ],
        3,
      ),
    ).toBe('合计金额：1,000,000.00 USDT，手续费：2.5000 LZ，共 3 条');
  });
});
