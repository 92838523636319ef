/**
 * The table of every list page: one page of rows from the server, on MUI's Table parts. Sorting and paging
 * happen on the server (ListPage); this draws the rows, the sort headers, the selection checkboxes and the
 * resize handles, and keeps the pinned columns in view while the table scrolls sideways: ID and member on
 * the left, 操作 on the right (CSS `position: sticky`, on screens wider than 800 px). Chosen over MUI X's DataGrid,
 * whose free edition cannot pin columns, at a quarter of its size (docs/decisions.md "Tables").
 */
import {
  isValidElement,
  useRef,
  useState,
  type CSSProperties,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { alpha, type Theme } from '@mui/material/styles';
import { baseWidth, type Column, type Density, type RowId } from './columnTypes';

/** What an empty cell shows, on every list alike. */
export const EMPTY_CELL = '-';
export const EMPTY_TEXT = '暂无数据';
const CHECKBOX_WIDTH = 48;
const ROW_HEIGHT: Record<Density, number> = { compact: 36, standard: 52, comfortable: 64 };

export interface TableSelection {
  selected: ReadonlySet<RowId>;
  /** Selects (`on`) or unselects the given rows. */
  toggle: (ids: RowId[], on: boolean) => void;
}

export interface DataTableProps<R> {
  rows: R[];
  /** In the order shown; their `pin` is honoured only when `pinned`. */
  columns: Column<R>[];
  getRowId?: (row: R) => RowId;
  /** Accessible name of the table, e.g. "管理员列表". */
  label?: string;
  /** A request is under way: a progress bar over the rows on screen. */
  loading?: boolean;
  /** No answer yet: skeleton rows instead of "暂无数据". */
  pending?: boolean;
  sort?: { field: string; order: 'asc' | 'desc' };
  /** Next state of a clicked header: ascending, descending, then unsorted (no field). */
  onSort?: (field?: string, order?: 'asc' | 'desc') => void;
  selection?: TableSelection;
  density?: Density;
  /** A page whose rows hold images or two lines asks for taller rows than the density gives. */
  rowHeight?: number;
  /** Widths set by resizing, by field. */
  widths?: Record<string, number>;
  onResize?: (field: string, width: number) => void;
  /** Keep pinned columns in view (the caller decides from the window's width). */
  pinned?: boolean;
  skeletonRows?: number;
}

export const defaultRowId = (row: unknown): RowId => (row as { id: RowId }).id;

/** The cell's content: renderCell as is; otherwise the formatted value, '-' when there is nothing. */
export function cellContent<R>(c: Column<R>, row: R): ReactNode {
  const raw = (row as Record<string, unknown>)[c.field];
  const value = c.valueGetter ? (c.valueGetter as (v: unknown, r: R) => unknown)(raw, row) : raw;
  if (c.renderCell) return c.renderCell({ row, value, field: c.field });
  const shown = c.valueFormatter ? (c.valueFormatter as (v: unknown, r: R) => unknown)(value, row) : value;
  if (shown === null || shown === undefined || shown === '') return EMPTY_CELL;
  return isValidElement(shown) ? shown : String(shown);
}

interface Pin {
  side: 'left' | 'right';
  offset: number;
  /** The pinned column next to the scrolling ones: it draws the dividing line. */
  edge: boolean;
}

/** Offsets of the pinned columns: left ones from the table's start (after the checkboxes), right ones from its end. */
function pinsOf<R>(columns: Column<R>[], width: (c: Column<R>) => number, leftStart: number): (Pin | null)[] {
  const pins: (Pin | null)[] = columns.map(() => null);
  let left = leftStart;
  let lastLeft = -1;
  for (let i = 0; i < columns.length && columns[i].pin === 'left'; i += 1) {
    pins[i] = { side: 'left', offset: left, edge: false };
    left += width(columns[i]);
    lastLeft = i;
  }
  if (lastLeft >= 0) pins[lastLeft] = { ...(pins[lastLeft] as Pin), edge: true };
  let right = 0;
  let firstRight = -1;
  for (let i = columns.length - 1; i > lastLeft && columns[i].pin === 'right'; i -= 1) {
    pins[i] = { side: 'right', offset: right, edge: false };
    right += width(columns[i]);
    firstRight = i;
  }
  if (firstRight >= 0) pins[firstRight] = { ...(pins[firstRight] as Pin), edge: true };
  return pins;
}

/** Opaque cells for pinned columns (rows slide under them); hover and selection tint drawn over them. */
const pinSx = (pin: Pin | null, header: boolean) =>
  pin
    ? {
        position: 'sticky',
        [pin.side]: pin.offset,
        zIndex: header ? 3 : 1,
        ...(pin.edge
          ? pin.side === 'left'
            ? { boxShadow: (t: Theme) => `inset -1px 0 0 ${t.palette.divider}` }
            : { boxShadow: (t: Theme) => `inset 1px 0 0 ${t.palette.divider}` }
          : {}),
      }
    : {};

function ResizeHandle({ onMove, onDone, label }: { onMove: (dx: number) => void; onDone: () => void; label: string }) {
  const start = useRef<number | null>(null);
  const down = (e: ReactPointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    e.stopPropagation();
    start.current = e.clientX;
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const move = (e: ReactPointerEvent<HTMLSpanElement>) => {
    if (start.current !== null) onMove(e.clientX - start.current);
  };
  const up = () => {
    if (start.current === null) return;
    start.current = null;
    onDone();
  };
  return (
    <Box
      component="span"
      aria-hidden
      title={label}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onClick={(e) => e.stopPropagation()}
      sx={{
        position: 'absolute',
        top: 0,
        right: 0,
        width: 8,
        height: '100%',
        cursor: 'col-resize',
        touchAction: 'none',
        '&:hover, &:active': { boxShadow: (t) => `inset -2px 0 0 ${t.palette.primary.main}` },
      }}
    />
  );
}

export function DataTable<R>({
  rows,
  columns,
  getRowId = defaultRowId,
  label,
  loading = false,
  pending = false,
  sort,
  onSort,
  selection,
  density = 'standard',
  rowHeight,
  widths = {},
  onResize,
  pinned = false,
  skeletonRows = 5,
}: DataTableProps<R>) {
  // The width of the column being dragged, shown live and saved on release.
  const [drag, setDrag] = useState<{ field: string; from: number; width: number } | null>(null);
  // The same, read by the pointer handlers (never a state update inside another one's updater).
  const dragRef = useRef<{ field: string; from: number; width: number } | null>(null);
  const width = (c: Column<R>) => (drag?.field === c.field ? drag.width : (widths[c.field] ?? baseWidth(c)));
  // A flex column without a width of its own shares what the others leave (at least its minWidth).
  const sized = (c: Column<R>) => widths[c.field] !== undefined || drag?.field === c.field || !c.flex || !!c.width;
  const pins = pinned ? pinsOf(columns, width, selection ? CHECKBOX_WIDTH : 0) : columns.map(() => null);
  const minWidth = columns.reduce((n, c) => n + width(c), selection ? CHECKBOX_WIDTH : 0);
  const height = Math.round((rowHeight ?? ROW_HEIGHT.standard) * (ROW_HEIGHT[density] / ROW_HEIGHT.standard));
  const padY = density === 'compact' ? 0.25 : density === 'comfortable' ? 1.25 : 0.75;

  const ids = rows.map(getRowId);
  const pageSelected = selection ? ids.filter((id) => selection.selected.has(id)).length : 0;
  const colCount = columns.length + (selection ? 1 : 0);
  const checkboxPin: Pin | null = pinned && selection ? { side: 'left', offset: 0, edge: false } : null;

  const header = (c: Column<R>, i: number) => {
    const active = sort?.field === c.field;
    const cycle = () =>
      onSort?.(...((!active ? [c.field, 'asc'] : sort?.order === 'asc' ? [c.field, 'desc'] : []) as [string?, 'asc'?]));
    const title = c.sortable ? (
      <TableSortLabel active={active} direction={active ? sort?.order : 'asc'} onClick={cycle}>
        {c.headerName}
      </TableSortLabel>
    ) : (
      c.headerName
    );
    return (
      <TableCell
        key={c.field}
        data-field={c.field}
        align={c.headerAlign ?? c.align}
        sortDirection={active ? sort?.order : false}
        sx={{
          position: 'relative',
          fontWeight: 600,
          whiteSpace: 'nowrap',
          bgcolor: 'grey.50',
          ...pinSx(pins[i], true),
        }}
      >
        {title}
        {onResize ? (
          <ResizeHandle
            label={`拖动调整「${c.headerName}」列宽`}
            onMove={(dx) => {
              const from = dragRef.current?.field === c.field ? dragRef.current.from : width(c);
              const next = Math.max(c.minWidth ?? 60, Math.min(c.maxWidth ?? 800, Math.round(from + dx)));
              dragRef.current = { field: c.field, from, width: next };
              setDrag(dragRef.current);
            }}
            onDone={() => {
              const d = dragRef.current;
              dragRef.current = null;
              setDrag(null);
              if (d) onResize(c.field, d.width);
            }}
          />
        ) : null}
      </TableCell>
    );
  };

  const cellStyle = (c: Column<R>): CSSProperties | undefined =>
    c.maxWidth && !sized(c) ? { maxWidth: c.maxWidth } : undefined;

  let body: ReactNode;
  if (rows.length === 0 && pending) {
    body = Array.from({ length: skeletonRows }, (_, i) => (
      <TableRow key={`skeleton-${i}`} aria-hidden sx={{ height }}>
        <TableCell colSpan={colCount}>
          <Skeleton variant="text" />
        </TableCell>
      </TableRow>
    ));
  } else if (rows.length === 0) {
    body = (
      <TableRow sx={{ height: height * 2 }}>
        <TableCell colSpan={colCount} align="center" sx={{ color: 'text.secondary' }}>
          {EMPTY_TEXT}
        </TableCell>
      </TableRow>
    );
  } else {
    body = rows.map((row, r) => {
      const id = ids[r];
      const picked = selection?.selected.has(id) ?? false;
      return (
        <TableRow key={String(id)} data-id={String(id)} hover selected={picked} sx={{ height }}>
          {selection ? (
            <TableCell padding="checkbox" sx={pinSx(checkboxPin, false)}>
              <Checkbox
                size="small"
                checked={picked}
                onChange={(e) => selection.toggle([id], e.target.checked)}
                slotProps={{ input: { 'aria-label': '选择行' } }}
              />
            </TableCell>
          ) : null}
          {columns.map((c, i) => (
            <TableCell
              key={c.field}
              data-field={c.field}
              align={c.align}
              style={cellStyle(c)}
              sx={{ py: padY, ...pinSx(pins[i], false) }}
            >
              {cellContent(c, row)}
            </TableCell>
          ))}
        </TableRow>
      );
    });
  }

  return (
    <Box sx={{ position: 'relative' }}>
      {loading ? (
        <LinearProgress aria-label="加载中" sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 4 }} />
      ) : null}
      {/* Focusable so that a keyboard can scroll a wide table (axe: scrollable-region-focusable). */}
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label ? `${label}（可左右滚动）` : '表格'}>
        <Table
          size="small"
          aria-label={label}
          aria-busy={loading || pending}
          sx={(t) => ({
            tableLayout: 'fixed',
            minWidth,
            // Rows slide under the pinned cells: those are opaque, with the hover / selected tint on top.
            '& td, & th': { bgcolor: 'background.paper', overflow: 'hidden', textOverflow: 'ellipsis' },
            '& th': { bgcolor: t.palette.grey[50] },
            '& tbody tr:hover td': {
              backgroundImage: `linear-gradient(${t.palette.action.hover}, ${t.palette.action.hover})`,
            },
            '& tbody tr.Mui-selected td': {
              backgroundImage: `linear-gradient(${alpha(t.palette.primary.main, 0.08)}, ${alpha(t.palette.primary.main, 0.08)})`,
            },
            '& td': { whiteSpace: 'nowrap' },
          })}
        >
          <colgroup>
            {selection ? <col style={{ width: CHECKBOX_WIDTH }} /> : null}
            {columns.map((c) => (
              <col key={c.field} style={sized(c) ? { width: width(c) } : undefined} />
            ))}
          </colgroup>
          <TableHead>
            <TableRow>
              {selection ? (
                <TableCell padding="checkbox" sx={{ bgcolor: 'grey.50', ...pinSx(checkboxPin, true) }}>
                  <Checkbox
                    size="small"
                    disabled={rows.length === 0}
                    checked={rows.length > 0 && pageSelected === rows.length}
                    indeterminate={pageSelected > 0 && pageSelected < rows.length}
                    onChange={(e) => selection.toggle(ids, e.target.checked)}
                    slotProps={{ input: { 'aria-label': '选择本页全部行' } }}
                  />
                </TableCell>
              ) : null}
              {columns.map(header)}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </Box>
    </Box>
  );
}

export default DataTable;
