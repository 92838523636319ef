/**
 * Column builders for the table of a list page, so every page shows times, amounts and statuses
 * the same way:
 *
 *   const columns: Column<Withdraw>[] = [
 *     { field: 'id', headerName: 'ID', width: 90, sortable: true },
 *     moneyColumn('amount', '金额', 'USDT', { sortable: true }),
 *     moneyColumn('change', '变动', (row) => row.asset, { signed: true }),
 *     statusColumn('status', '状态', WithdrawStatus.map),
 *     timeColumn('createdAt', '申请时间', { sortable: true }),
 *     actionsColumn((row) => <>{can('withdraw:audit') && WithdrawActions.allows('approve', row.status) ? <Button …>通过</Button> : null}</>),
 *   ];
 */
import type { ReactNode } from 'react';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Column } from './table/columnTypes';
import type { Asset } from '../../domain/assets';
import { formatTime } from '../../domain/time';
import { CopyText } from './CopyText';
import { MoneyText } from './MoneyText';
import { StatusChip, type StatusMap } from './StatusChip';

type Extra<R> = Partial<Column<R>>;

/** Epoch ms → "YYYY-MM-DD HH:mm:ss" in Asia/Shanghai; empty when there is no time. */
export function formatTimeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(ms) ? formatTime(ms) : '';
}

export function timeColumn<R>(field: string, headerName: string, extra: Extra<R> = {}): Column<R> {
  return {
    field,
    headerName,
    width: 170,
    valueFormatter: (value: unknown) => formatTimeValue(value),
    ...extra,
  };
}

export function moneyColumn<R>(
  field: string,
  headerName: string,
  asset: Asset | ((row: R) => Asset),
  extra: Extra<R> & { signed?: boolean; showAsset?: boolean } = {},
): Column<R> {
  const { signed, showAsset, ...rest } = extra;
  return {
    field,
    headerName,
    width: 150,
    align: 'right',
    headerAlign: 'right',
    renderCell: ({ row, value }) => (
      <MoneyText
        value={value as string | null | undefined}
        asset={typeof asset === 'function' ? asset(row) : asset}
        signed={signed}
        showAsset={showAsset}
      />
    ),
    ...rest,
  };
}

export function statusColumn<R, K extends string | number>(
  field: string,
  headerName: string,
  map: StatusMap<K>,
  extra: Extra<R> = {},
): Column<R> {
  return {
    field,
    headerName,
    width: 110,
    renderCell: ({ value }) => <StatusChip value={value as K | null | undefined} map={map} />,
    ...extra,
  };
}

/** The 会员 column of the money lists: uid, with the nickname (or phone) under it. */
export function memberColumn<R extends { uid: string; nickname?: string; phone?: string }>(
  extra: Extra<R> = {},
): Column<R> {
  return {
    field: 'uid',
    headerName: '会员',
    width: 140,
    renderCell: ({ row }) => (
      <Stack sx={{ lineHeight: 1.3, justifyContent: 'center', height: '100%' }}>
        <span>{row.uid}</span>
        <Typography variant="caption" color="text.secondary">
          {row.nickname || row.phone}
        </Typography>
      </Stack>
    ),
    ...extra,
  };
}

/** A link to an uploaded file (proof, QR code) opened in a new tab as 查看, or '-' without one. */
export function fileLinkColumn<R>(field: string, headerName: string, extra: Extra<R> = {}): Column<R> {
  return {
    field,
    headerName,
    width: 80,
    sortable: false,
    renderCell: ({ value }) =>
      value ? (
        <Link href={value as string} target="_blank" rel="noopener noreferrer">
          查看
        </Link>
      ) : (
        '-'
      ),
    ...extra,
  };
}

/**
 * The width of an 操作 column that shows at most `buttons` small text buttons at once: each is at least
 * 64 px, 4 px apart, in the cell's padding, with a little to spare (a narrower column clips the last).
 */
export const actionsWidth = (buttons: number) => 24 + 68 * buttons;

/** The 操作 column: the row's action buttons (small text buttons), never sortable. */
export function actionsColumn<R>(render: (row: R) => ReactNode, extra: Extra<R> = {}): Column<R> {
  return {
    field: '__actions',
    headerName: '操作',
    width: actionsWidth(3),
    sortable: false,
    pin: 'right',
    hideable: false,
    renderCell: ({ row }) => (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
        {render(row)}
      </Stack>
    ),
    ...extra,
  };
}

/** A long value (address, hash, account): its two ends, the whole on hover, a copy button. */
export function copyColumn<R>(field: string, headerName: string, extra: Extra<R> = {}): Column<R> {
  return {
    field,
    headerName,
    width: 180,
    renderCell: ({ value }) => <CopyText value={value as string | null} label={headerName} />,
    ...extra,
  };
}
