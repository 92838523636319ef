/**
 * The view of every list page: filter bar, toolbar, a server-paged table with its pager and the totals line.
 * All state comes from useListParams (URL) and the page's generated query hook, so this stays generic:
 *
 *   const params = useListParams({ filters: { username: '', status: '' }, numeric: ['status'] });
 *   const { data, isFetching } = useListManagersQuery(params.queryArgs);
 *   <ListPage params={params} columns={columns} data={data} isFetching={isFetching} toolbar={<Button …/>}>
 *     <TextField label="用户名" {...params.field('username')} />
 *   </ListPage>
 *
 * Columns are not sortable unless they say `sortable: true`: the server only sorts whitelisted fields.
 */
import { useEffect, useMemo, type KeyboardEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { Asset } from '../../domain/assets';
import { useAppSelector } from '../store/hooks';
import { formatMoneyText } from './MoneyText';
import { ColumnSettings } from './table/ColumnSettings';
import type { Column, RowId } from './table/columnTypes';
import { DataTable, EMPTY_CELL, EMPTY_TEXT } from './table/DataTable';
import { byNumber, endCursor, isEndCursor, lastPageOf, TablePager } from './table/TablePager';
import { arrangeColumns, useTableSettings } from './table/tableSettings';
import type { FilterValues, ListParams } from './useListParams';
import type { RowSelection } from './useRowSelection';

export { EMPTY_CELL, EMPTY_TEXT };
export type { Column };

/**
 * The pins a list gets without asking: a leading ID (and the member column right after it) on the left,
 * the 操作 column on the right.
 */
export function withDefaultPins<R>(columns: Column<R>[]): Column<R>[] {
  return columns.map((c, i) => {
    if (c.pin) return c;
    if (i === 0 && c.field === 'id') return { ...c, pin: 'left' };
    if (i === 1 && columns[0].field === 'id' && c.field === 'uid') return { ...c, pin: 'left' };
    return c;
  });
}

/**
 * Enter in a text field of the filter bar searches. Not a <form> submit on purpose: a submit that
 * starts a router transition makes React build FormData from the form, which test DOMs cannot do.
 * Enter is left alone while an IME composes (Chinese input), in text areas, and on controls that
 * use Enter themselves (select, autocomplete option, buttons).
 */
export function isSearchEnter(event: KeyboardEvent<HTMLElement>): boolean {
  if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return false;
  if (event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return false;
  const target = event.target as HTMLElement;
  if (!(target instanceof HTMLInputElement)) return false;
  if (['checkbox', 'radio', 'button', 'submit', 'reset', 'file'].includes(target.type)) return false;
  return !target.getAttribute('aria-expanded') || target.getAttribute('aria-expanded') === 'false';
}

/** What a list endpoint returns in `data`. */
export interface ListData<R, S = unknown> {
  list: R[];
  total: number;
  page?: number;
  size?: number;
  sum?: S;
  /** Cursors of the page's last and first rows, from the lists that page by cursor (useListParams). */
  next?: string | null;
  prev?: string | null;
  /** The total stopped counting at `total` (more rows may follow). */
  totalCapped?: boolean;
}

/** One amount of the totals line: "合计金额：12,345.67 USDT". */
export interface TotalItem {
  label: string;
  amount: string;
  asset: Asset;
}

/** "合计金额：12,345.67 USDT，手续费：1.00 USDT，共 12 条" */
export function totalsText(items: TotalItem[], total: number): string {
  const parts = items.map((t) => `${t.label}：${formatMoneyText(t.amount, t.asset, { showAsset: true })}`);
  return [...parts, `共 ${total} 条`].join('，');
}

export interface ListPageProps<R, S = unknown, F extends FilterValues = FilterValues> {
  params: ListParams<F>;
  columns: Column<R>[];
  /** The query hook's `data`; undefined while the first page loads. */
  data?: ListData<R, S>;
  isFetching?: boolean;
  /** Filter fields; Enter in any of them searches. No children → no filter bar. */
  children?: ReactNode;
  /** Buttons above the table: create, export, batch actions. */
  toolbar?: ReactNode;
  /** The totals line under the table, built from `data.sum`; shown once the sum is there. */
  totals?: (sum: S) => TotalItem[];
  /** Checkbox selection for batch actions (useRowSelection()). */
  selection?: RowSelection;
  getRowId?: (row: R) => RowId;
  /**
   * The query hook's `refetch`: 搜索 and 重置 ask the server again even when the filters are unchanged,
   * and a 刷新 button appears.
   */
  onRefresh?: () => void;
  /** Accessible name of the table, e.g. "管理员列表"; also the key its column settings are kept under. */
  label?: string;
  /** Rows holding images or two lines: their height at the standard density. */
  rowHeight?: number;
}

export function ListPage<R, S = unknown, F extends FilterValues = FilterValues>({
  params: typedParams,
  columns,
  data,
  isFetching = false,
  children,
  toolbar,
  totals,
  selection,
  getRowId,
  label,
  rowHeight,
  onRefresh,
}: ListPageProps<R, S, F>) {
  // The bar only calls search/reset and the pager: the filter names do not matter here.
  const params = typedParams as unknown as ListParams<FilterValues>;
  const rows = data?.list ?? [];
  const [settings, setSettings] = useTableSettings(label);
  const pinnedColumns = useMemo(() => withDefaultPins(columns), [columns]);
  const shown = useMemo(() => arrangeColumns(pinnedColumns, settings), [pinnedColumns, settings]);
  // Pinned columns stay in view except on a phone-sized window, where they would leave no room.
  const pinned = useAppSelector((s) => s.layout.breakpoint !== 'small');

  // An unchanged URL starts no new query: ask the server again for what is on screen.
  const search = () => {
    if (!params.search()) onRefresh?.();
  };
  const reset = () => {
    if (!params.reset()) onRefresh?.();
  };
  const refresh = onRefresh ? (
    <Button type="button" variant="outlined" startIcon={<RefreshIcon />} onClick={() => onRefresh()}>
      刷新
    </Button>
  ) : null;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!isSearchEnter(event)) return;
    event.preventDefault();
    search();
  };

  const total = data?.total ?? 0;
  const capped = Boolean(data?.totalCapped);
  // Lists that page by cursor answer `next` / `prev` (null at an end); the others leave them out.
  const cursors = data !== undefined && 'next' in data;
  const order = params.order ?? 'desc';
  const last = lastPageOf(total, params.size);
  const atEnd = isEndCursor(params.cursor.before);

  const goTo = (target: number) => {
    if (target === params.page) return;
    // 下一页 / 上一页 start from a row on screen when the list answers cursors: any depth, same cost.
    // Only the answer for this page holds its cursors: while the next page loads, `data` is still the
    // previous one (a second quick 下一页 would skip a page under the wrong number), so page by number.
    const onScreen = data && (data.page === undefined || data.page === params.page) ? data : undefined;
    if (target === params.page + 1 && onScreen?.next) params.setPage(target, { after: onScreen.next });
    else if (target === params.page - 1 && target > 1 && onScreen?.prev)
      params.setPage(target, { before: onScreen.prev });
    else if (!byNumber(target, params.size) && cursors && target === last)
      params.setPage(target, { before: endCursor(order) });
    else params.setPage(target);
  };

  // A page past the end (the last row of the last page was deleted, or an old link such as ?page=300):
  // go to the last page, replacing the history entry so back does not return to the empty one. Past the
  // number window the last page is read from the end of the list (a cursor list) or the list starts over.
  const pastEnd = Boolean(data) && rows.length === 0 && total > 0 && params.page > 1 && !capped;
  const { setPage } = params;
  useEffect(() => {
    if (!pastEnd || isFetching) return;
    if (byNumber(last, params.size)) setPage(last, { replace: true });
    else if (cursors) setPage(last, { replace: true, before: endCursor(order) });
    else setPage(1, { replace: true });
  }, [pastEnd, isFetching, last, params.size, cursors, order, setPage]);

  const sum = data?.sum;
  const hasNext = Boolean(data?.next) && rows.length === params.size;

  return (
    <Stack spacing={2}>
      {children ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box
            role="search"
            aria-label="筛选"
            onKeyDown={onKeyDown}
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
          >
            {children}
            <Stack direction="row" spacing={1}>
              <Button type="button" variant="contained" startIcon={<SearchIcon />} onClick={search}>
                搜索
              </Button>
              <Button type="button" variant="outlined" startIcon={<RestartAltIcon />} onClick={reset}>
                重置
              </Button>
              {refresh}
            </Stack>
          </Box>
        </Paper>
      ) : null}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        {toolbar}
        {children ? null : refresh}
        <Box sx={{ ml: 'auto' }}>
          <ColumnSettings columns={pinnedColumns} settings={settings} onChange={setSettings} />
        </Box>
      </Stack>
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataTable<R>
          rows={rows}
          columns={shown}
          getRowId={getRowId}
          label={label}
          loading={isFetching && data !== undefined}
          pending={data === undefined}
          sort={params.sort ? { field: params.sort, order: params.order ?? 'asc' } : undefined}
          onSort={(field, o) => {
            if (field === params.sort && o === params.order) return;
            params.setSort(field, o);
          }}
          selection={selection}
          density={settings.density}
          rowHeight={rowHeight}
          widths={settings.widths}
          onResize={(field, width) => setSettings({ ...settings, widths: { ...settings.widths, [field]: width } })}
          pinned={pinned}
          skeletonRows={Math.min(params.size, 10)}
        />
        <TablePager
          page={params.page}
          size={params.size}
          total={total}
          capped={capped}
          rows={rows.length}
          hasNext={hasNext}
          cursors={cursors}
          atEnd={atEnd}
          onPage={goTo}
          onSize={(n) => n !== params.size && params.setSize(n)}
          selected={selection?.ids.length}
          disabled={data === undefined}
        />
      </Paper>
      {totals && sum !== undefined && sum !== null ? (
        <Typography variant="body2" color="text.secondary" role="status">
          {totalsText(totals(sum), data?.total ?? 0)}
        </Typography>
      ) : null}
    </Stack>
  );
}

export default ListPage;
