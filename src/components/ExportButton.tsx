/**
 * The export button of a list page: downloads the list's file with the current filters and shows
 * the progress (bytes, and a percentage when the size is known) in the button and a small dialog
 * that can cancel it.
 *
 *   <Can code="payment:export"><ExportButton path="/v1/admin/payment/export" params={params.queryArgs} formats={['xlsx', 'csv']} /></Can>
 */
import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { formatBytes, type DownloadProgress, type QueryValue } from '../services/download';
import { useDownload } from './useDownload';

export type ExportFormat = 'xlsx' | 'csv';
const FORMAT_LABEL: Record<ExportFormat, string> = { xlsx: '导出 Excel', csv: '导出 CSV' };

/**
 * List paging never goes to an export: it is all rows matching the filters (a cursor of page 2 sent
 * along was refused by the export's schema).
 */
const NOT_EXPORTED = new Set(['page', 'size', 'after', 'before']);

/** A list's query arguments as an export takes them: its filters, without paging, cursor or sort. */
export function exportFilters<A extends Record<string, unknown>>(args: A) {
  const { page: _p, size: _s, sort: _o, order: _d, after: _a, before: _b, ...filters } = args;
  return filters;
}

export interface ExportButtonProps {
  /** The export endpoint, e.g. "/v1/admin/payment/export". */
  path: string;
  /** The list's filters (useListParams().queryArgs is fine: page, size and cursors are dropped). */
  params?: Record<string, QueryValue>;
  /** One format: a plain button; several: a menu. Default ['xlsx']; csv sends format=csv. */
  formats?: ExportFormat[];
  label?: string;
  /** Name used when the server sends none. */
  fallbackName?: string;
  disabled?: boolean;
}

export function progressText(progress: DownloadProgress | null): string {
  if (!progress) return '';
  const size = progress.total
    ? `${formatBytes(progress.received)} / ${formatBytes(progress.total)}`
    : formatBytes(progress.received);
  return progress.percent === null ? `已下载 ${size}` : `已下载 ${size}（${progress.percent}%）`;
}

export function ExportButton({
  path,
  params = {},
  formats = ['xlsx'],
  label = '导出',
  fallbackName,
  disabled = false,
}: ExportButtonProps) {
  const { busy, progress, start, cancel } = useDownload();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();

  const run = (format: ExportFormat) => {
    setAnchor(null);
    const query: Record<string, QueryValue> = {};
    for (const [key, value] of Object.entries(params)) if (!NOT_EXPORTED.has(key)) query[key] = value;
    if (format === 'csv') query.format = 'csv';
    void start(path, { params: query, fallbackName: fallbackName ?? `导出.${format}` });
  };

  const percent = progress?.percent ?? null;
  const buttonText = busy ? (percent === null ? '导出中…' : `导出中 ${percent}%`) : label;
  const multiple = formats.length > 1;

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FileDownloadIcon />}
        disabled={disabled || busy}
        aria-haspopup={multiple ? 'menu' : undefined}
        aria-controls={multiple && anchor ? `${id}-menu` : undefined}
        aria-expanded={multiple ? Boolean(anchor) : undefined}
        onClick={(e) => (multiple ? setAnchor(e.currentTarget) : run(formats[0]))}
      >
        {buttonText}
      </Button>
      {multiple ? (
        <Menu id={`${id}-menu`} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          {formats.map((f) => (
            <MenuItem key={f} onClick={() => run(f)}>
              {FORMAT_LABEL[f]}
            </MenuItem>
          ))}
        </Menu>
      ) : null}
      <Dialog open={busy} maxWidth="xs" fullWidth aria-labelledby={`${id}-title`}>
        <DialogTitle id={`${id}-title`}>正在导出</DialogTitle>
        <DialogContent>
          <Box sx={{ py: 1 }}>
            <LinearProgress
              variant={percent === null ? 'indeterminate' : 'determinate'}
              value={percent ?? undefined}
              aria-label="导出进度"
            />
          </Box>
          <Typography variant="body2" color="text.secondary" role="status">
            {progressText(progress)}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>取消</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export default ExportButton;
