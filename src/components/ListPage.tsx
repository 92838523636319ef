/**
 * The view of every list page: filter bar, toolbar, a server-paged DataGrid and the totals line.
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
import {
  DataGrid,
  type DataGridProps,
  type GridColDef,
  type GridPaginationModel,
  type GridRowId,
  type GridRowSelectionModel,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { zhCN } from '@mui/x-data-grid/locales';
import type { Asset } from '../../domain/assets';
import { MAX_OFFSET } from '../../domain/paging';
import { formatMoneyText } from './MoneyText';
import { PAGE_SIZE_OPTIONS, type FilterValues, type ListParams } from './useListParams';
import type { RowSelection } from './useRowSelection';
import XLocalizationProvider from './XLocalizationProvider';

export const EMPTY_TEXT = '暂无数据';
/** What an empty cell shows, on every list alike. */
export const EMPTY_CELL = '-';

/**
 * Not sortable unless it says so, and '-' in a cell with nothing to show (null, undefined or an empty
 * string, after the column's own formatter). A column that renders its cell itself, or has a type, decides
 * alone.
 */
function withEmptyDash<R extends GridValidRowModel>(c: GridColDef<R>): GridColDef<R> {
  // A typed column (date, number, singleSelect…) keeps its type's own formatter.
  if (c.renderCell || c.type) return { sortable: false, ...c };
  const own = c.valueFormatter;
  return {
    sortable: false,
    ...c,
    valueFormatter: (value, row, column, apiRef) => {
      const shown = own ? (own as (...a: unknown[]) => unknown)(value, row, column, apiRef) : value;
      return shown === null || shown === undefined || shown === '' ? EMPTY_CELL : shown;
    },
  } as GridColDef<R>;
}
const PAGE_SIZES = [...PAGE_SIZE_OPTIONS];
const SORTING_ORDER = ['asc', 'desc', null] as const;
const SLOT_PROPS: DataGridProps['slotProps'] = {
  loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' },
};

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
}

/** One amount of the totals line: "合计金额：12,345.67 USDT". */
export interface TotalItem {
  label: string;
  amount: string;
  asset: Asset;
}

export const gridLocaleText: DataGridProps['localeText'] = {
  ...zhCN.components.MuiDataGrid.defaultProps.localeText,
  noRowsLabel: EMPTY_TEXT,
  noResultsOverlayLabel: EMPTY_TEXT,
  paginationRowsPerPage: '每页条数：',
  footerRowSelected: (count: number) => `已选择 ${count} 条`,
};

/** "合计金额：12,345.67 USDT，手续费：1.00 USDT，共 12 条" */
export function totalsText(items: TotalItem[], total: number): string {
  const parts = items.map((t) => `${t.label}：${formatMoneyText(t.amount, t.asset, { showAsset: true })}`);
  return [...parts, `共 ${total} 条`].join('，');
}

export interface ListPageProps<R extends GridValidRowModel, S = unknown, F extends FilterValues = FilterValues> {
  params: ListParams<F>;
  columns: GridColDef<R>[];
  /** The query hook's `data`; undefined while the first page loads. */
  data?: ListData<R, S>;
  isFetching?: boolean;
  /** Filter fields; Enter in any of them searches. No children → no filter bar. */
  children?: ReactNode;
  /** Buttons above the grid: create, export, batch actions. */
  toolbar?: ReactNode;
  /** The totals line under the grid, built from `data.sum`; shown once the sum is there. */
  totals?: (sum: S) => TotalItem[];
  /** Checkbox selection for batch actions (useRowSelection()). */
  selection?: RowSelection;
  getRowId?: (row: R) => GridRowId;
  /**
   * The query hook's `refetch`: 搜索 and 重置 ask the server again even when the filters are unchanged,
   * and a 刷新 button appears.
   */
  onRefresh?: () => void;
  /** Accessible name of the grid, e.g. "管理员列表". */
  label?: string;
  /** Escape hatch for grid props this component does not decide (rowHeight, getRowClassName…). */
  gridProps?: Partial<DataGridProps<R>>;
}

export function ListPage<R extends GridValidRowModel, S = unknown, F extends FilterValues = FilterValues>({
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
  gridProps,
  onRefresh,
}: ListPageProps<R, S, F>) {
  // The bar only calls search/reset and the pager: the filter names do not matter here.
  const params = typedParams as unknown as ListParams<FilterValues>;
  const rows = data?.list ?? [];
  const gridColumns = useMemo(() => columns.map(withEmptyDash), [columns]);

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

  // Stable models: a new object each render would read to the grid as a change (and a new sort
  // model resets it to the first page).
  const paginationModel: GridPaginationModel = useMemo(
    () => ({ page: params.page - 1, pageSize: params.size }),
    [params.page, params.size],
  );
  const onPaginationModelChange = (model: GridPaginationModel) => {
    if (model.pageSize !== params.size) return params.setSize(model.pageSize);
    const target = model.page + 1;
    if (target === params.page) return;
    // 下一页 / 上一页 start from a row on screen when the list answers cursors: any depth, same cost.
    // Only the answer for this page holds its cursors: while the next page loads, `data` is still the
    // previous one (a second quick 下一页 would skip a page under the wrong number), so page by number.
    const shown = data && (data.page === undefined || data.page === params.page) ? data : undefined;
    if (target === params.page + 1 && shown?.next) params.setPage(target, { after: shown.next });
    else if (target === params.page - 1 && target > 1 && shown?.prev) params.setPage(target, { before: shown.prev });
    else params.setPage(target);
  };
  const sortModel: GridSortModel = useMemo(
    () => (params.sort ? [{ field: params.sort, sort: params.order ?? 'asc' }] : []),
    [params.sort, params.order],
  );
  const onSortModelChange = (model: GridSortModel) => {
    const first = model[0];
    if (first?.field === params.sort && first?.sort === params.order) return;
    params.setSort(first?.field, first?.sort ?? undefined);
  };

  // A page past the end (the last row of the last page was deleted, or an old link): go to the
  // last page that has rows, replacing the history entry so back does not return to the empty one.
  const total = data?.total ?? 0;
  const pastEnd = Boolean(data) && rows.length === 0 && total > 0 && params.page > 1;
  // Past MAX_OFFSET rows a page number alone is refused (only cursors go there): start over instead.
  const lastByNumber = Math.max(1, Math.ceil(total / params.size));
  const lastPage = (lastByNumber - 1) * params.size > MAX_OFFSET ? 1 : lastByNumber;
  const { setPage } = params;
  useEffect(() => {
    if (pastEnd && !isFetching) setPage(lastPage, { replace: true });
  }, [pastEnd, isFetching, lastPage, setPage]);

  const onRowSelectionModelChange = (model: GridRowSelectionModel) => selection?.setModel(model);
  const sum = data?.sum;

  // Chinese texts for the grid (the date range filter's calendar brings its own).
  return (
    <XLocalizationProvider>
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
        {toolbar || (refresh && !children) ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {toolbar}
            {children ? null : refresh}
          </Stack>
        ) : null}
        <Paper variant="outlined">
          <DataGrid<R>
            aria-label={label}
            rows={rows}
            columns={gridColumns}
            getRowId={getRowId}
            // -1: unknown until the first answer, so a reloaded ?page=3 is not clamped to the first page.
            rowCount={data ? data.total : -1}
            loading={isFetching}
            paginationMode="server"
            sortingMode="server"
            filterMode="server"
            disableColumnFilter
            pageSizeOptions={PAGE_SIZES}
            paginationModel={paginationModel}
            onPaginationModelChange={onPaginationModelChange}
            sortModel={sortModel}
            onSortModelChange={onSortModelChange}
            sortingOrder={SORTING_ORDER}
            checkboxSelection={Boolean(selection)}
            disableRowSelectionOnClick
            disableRowSelectionExcludeModel
            keepNonExistentRowsSelected={Boolean(selection)}
            rowSelectionModel={selection?.model}
            onRowSelectionModelChange={selection ? onRowSelectionModelChange : undefined}
            localeText={gridLocaleText}
            autoHeight
            slotProps={SLOT_PROPS}
            // Pages hold at most 100 rows, so render every column: the 操作 column at the end of a wide
            // table exists (for keyboard, tests and find-in-page) before it is scrolled to.
            columnBufferPx={4000}
            {...gridProps}
          />
        </Paper>
        {totals && sum !== undefined && sum !== null ? (
          <Typography variant="body2" color="text.secondary" role="status">
            {totalsText(totals(sum), data?.total ?? 0)}
          </Typography>
        ) : null}
      </Stack>
    </XLocalizationProvider>
  );
}

export default ListPage;
