/** One record's daily releases as a small paged table (the pledge and seed 释放明细 drawers). */
import type { ReactNode } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatTimeValue } from './columns';

export const RELEASES_PAGE_SIZE = 20;

/** A money column between 释放日期 and 到账时间. */
export interface ReleaseColumn<R> {
  label: string;
  cell: (row: R) => ReactNode;
}

export default function ReleaseTable<R extends { id: number; day: string; createdAt: number }>(props: {
  rows: R[] | undefined;
  total: number;
  isFetching: boolean;
  /** Zero-based, as TablePagination counts. */
  page: number;
  onPage: (page: number) => void;
  columns: ReleaseColumn<R>[];
  /** The sums of every release of the record, under the table. */
  summary: ReactNode;
}) {
  const rows = props.rows ?? [];
  if (!rows.length) {
    return <Typography variant="body2">{props.isFetching ? '加载中...' : '暂无释放记录'}</Typography>;
  }
  return (
    <>
      <Table size="small" aria-label="释放明细">
        <TableHead>
          <TableRow>
            <TableCell>释放日期</TableCell>
            {props.columns.map((c) => (
              <TableCell key={c.label} align="right">
                {c.label}
              </TableCell>
            ))}
            <TableCell>到账时间</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.day}</TableCell>
              {props.columns.map((c) => (
                <TableCell key={c.label} align="right">
                  {c.cell(r)}
                </TableCell>
              ))}
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimeValue(r.createdAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={props.total}
        page={props.page}
        rowsPerPage={RELEASES_PAGE_SIZE}
        rowsPerPageOptions={[RELEASES_PAGE_SIZE]}
        onPageChange={(_e, p) => props.onPage(p)}
        labelDisplayedRows={({ from, to, count }) => `${from}-${to}，共 ${count} 条`}
      />
      <Typography variant="body2" color="text.secondary">
        {props.summary}
      </Typography>
    </>
  );
}
