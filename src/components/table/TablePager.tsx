/**
 * The footer of a list: "第 21–40 条，共 5,431 条", page numbers with 首页 / 末页, 跳至 … 页 and the page size.
 * A page number reaches the first MAX_OFFSET rows (domain/paging); past them only 上一页 / 下一页 (by the
 * cursors of the page on screen) and 末页 (the list read backwards from its end) go, and the numbers
 * there are shown but not offered. A capped total ("10,000+") has no last page: 下一页 while there is more.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import PaginationItem from '@mui/material/PaginationItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_OFFSET } from '../../../domain/paging';

export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** Whether a page can be asked for by its number alone. */
export const byNumber = (page: number, size: number) => (page - 1) * size <= MAX_OFFSET;

/** The last page of `total` rows (1 for none). */
export const lastPageOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/**
 * A `before` cursor past every row: read backwards from it, a list gives its last page. Past any sort
 * value a list holds, negative ones included (a product's 排序).
 */
export function endCursor(order: 'asc' | 'desc'): string {
  const max = Number.MAX_SAFE_INTEGER;
  return order === 'desc' ? `-${max}_0` : `${max}_0`;
}

/** The ascending end cursor of links bookmarked before the id-0 rule; the server still reads it as the end. */
const OLD_ASC_END = `${Number.MAX_SAFE_INTEGER}_${Number.MAX_SAFE_INTEGER}`;

/**
 * A 末页 cursor: id 0 names no row, and the server reads a `before` cursor with id 0 as the end of the
 * list (server/db/keyset.ts) — this console's end cursors, the `0_0` of links bookmarked before them,
 * and the older ascending one.
 */
export const isEndCursor = (before: string | undefined) =>
  before !== undefined && (/^-?\d+_0+$/.test(before) || before === OLD_ASC_END);

const NAV_LABELS: Record<string, string> = {
  first: '首页',
  last: '末页',
  next: '下一页',
  previous: '上一页',
  'start-ellipsis': '前面的页',
  'end-ellipsis': '后面的页',
};

const nf = (n: number) => n.toLocaleString('en-US');

/** "第 21–40 条，共 5,431 条" ("共 10,000+ 条" when the count stops). */
export function rangeText(p: {
  page: number;
  size: number;
  rows: number;
  total: number;
  capped?: boolean;
  atEnd?: boolean;
}) {
  const count = `共 ${nf(p.total)}${p.capped ? '+' : ''} 条`;
  if (p.rows === 0) return count;
  // The last page reached from the end holds the last `rows` rows.
  const from = p.atEnd && !p.capped ? p.total - p.rows + 1 : (p.page - 1) * p.size + 1;
  return `第 ${nf(from)}–${nf(from + p.rows - 1)} 条，${count}`;
}

export interface TablePagerProps {
  page: number;
  size: number;
  total: number;
  /** The total stopped counting: more rows may follow. */
  capped?: boolean;
  rows: number;
  /** The page on screen has a next one (for a capped total). */
  hasNext: boolean;
  /** The list answers cursors: pages past the number window are reached by 上一页 / 下一页 / 末页. */
  cursors: boolean;
  /** The page was reached from the end of the list (末页 past the number window). */
  atEnd?: boolean;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  /** Selected rows across pages, for batch actions. */
  selected?: number;
  disabled?: boolean;
}

export function TablePager({
  page,
  size,
  total,
  capped = false,
  rows,
  hasNext,
  cursors,
  atEnd,
  onPage,
  onSize,
  selected,
  disabled,
}: TablePagerProps) {
  const id = useId();
  const [jump, setJump] = useState('');
  const [jumpError, setJumpError] = useState('');
  const last = capped ? page + (hasNext ? 1 : 0) : lastPageOf(total, size);
  const windowPages = Math.floor(MAX_OFFSET / size) + 1;
  const reachable = (p: number) =>
    p === page || byNumber(p, size) || (cursors && (p === page + 1 || p === page - 1 || (!capped && p === last)));

  const go = () => {
    const text = jump.trim();
    if (!text) return;
    const p = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
    if (!(p >= 1 && p <= last)) return setJumpError(`请输入 1–${nf(last)} 之间的页码`);
    if (!reachable(p)) return setJumpError(`按页码只能跳到前 ${nf(windowPages)} 页，之后请用上一页/下一页或末页`);
    setJumpError('');
    setJump('');
    onPage(p);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      go();
    }
  };

  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1.5,
        px: 2,
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      {selected ? (
        <Typography variant="body2" color="primary">
          已选择 {selected} 条
        </Typography>
      ) : null}
      <Typography variant="body2" color="text.secondary">
        {rangeText({ page, size, rows, total, capped, atEnd })}
      </Typography>
      {capped ? null : (
        <Typography variant="body2" color="text.secondary">
          共 {nf(last)} 页
        </Typography>
      )}
      <Box sx={{ flex: 1 }} />
      <Pagination
        aria-label="分页"
        page={Math.min(page, last)}
        count={last}
        disabled={disabled}
        size="small"
        color="primary"
        shape="rounded"
        showFirstButton
        showLastButton={!capped}
        siblingCount={1}
        onChange={(_e, p) => p !== page && onPage(p)}
        getItemAriaLabel={(type, p, current) =>
          type === 'page' ? `第 ${p} 页${current ? '，当前页' : ''}` : NAV_LABELS[type]
        }
        renderItem={(item) => (
          <PaginationItem
            {...item}
            disabled={
              item.disabled ||
              (item.page !== null &&
                item.type !== 'start-ellipsis' &&
                item.type !== 'end-ellipsis' &&
                !reachable(item.page))
            }
          />
        )}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Typography variant="body2" component="label" htmlFor={`${id}-jump`}>
          跳至
        </Typography>
        <TextField
          id={`${id}-jump`}
          size="small"
          value={jump}
          onChange={(e) => {
            setJump(e.target.value);
            setJumpError('');
          }}
          onKeyDown={onKeyDown}
          onBlur={go}
          error={Boolean(jumpError)}
          title={jumpError || undefined}
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              'aria-label': '跳至页码',
              'aria-describedby': jumpError ? `${id}-error` : undefined,
              sx: { width: 48, py: 0.5, textAlign: 'center' },
            },
          }}
        />
        <Typography variant="body2">页</Typography>
      </Box>
      <TextField
        select
        size="small"
        value={size}
        onChange={(e) => onSize(Number(e.target.value))}
        slotProps={{
          htmlInput: { 'aria-label': '每页条数' },
          select: { SelectDisplayProps: { 'aria-label': '每页条数' } },
        }}
        sx={{ '& .MuiSelect-select': { py: 0.5 } }}
      >
        {PAGE_SIZES.map((n) => (
          <MenuItem key={n} value={n}>
            {n} 条/页
          </MenuItem>
        ))}
      </TextField>
      {jumpError ? (
        <Typography
          id={`${id}-error`}
          variant="caption"
          color="error"
          role="alert"
          sx={{ width: '100%', textAlign: 'right' }}
        >
          {jumpError}
        </Typography>
      ) : null}
    </Box>
  );
}

export default TablePager;
