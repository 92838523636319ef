/**
 * 列设置: which columns show, in which order, how dense the rows are; 恢复默认 forgets it all (widths too).
 * Pinned columns keep their place; 操作 cannot be hidden.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import type { Column, Density } from './columnTypes';
import { arrangeColumns, DEFAULT_SETTINGS, moveColumn, type TableSettings } from './tableSettings';

const DENSITY_LABELS: [Density, string][] = [
  ['compact', '紧凑'],
  ['standard', '标准'],
  ['comfortable', '宽松'],
];

export interface ColumnSettingsProps<R> {
  columns: Column<R>[];
  settings: TableSettings;
  onChange: (next: TableSettings | undefined) => void;
}

export function ColumnSettings<R>({ columns, settings, onChange }: ColumnSettingsProps<R>) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const all = arrangeColumns(columns, { ...settings, hidden: [] });
  const movable = all.filter((c) => !c.pin).map((c) => c.field);
  const toggle = (field: string, shown: boolean) =>
    onChange({
      ...settings,
      hidden: shown ? settings.hidden.filter((f) => f !== field) : [...settings.hidden, field],
    });

  return (
    <>
      <Button
        type="button"
        variant="outlined"
        startIcon={<ViewColumnIcon />}
        aria-haspopup="dialog"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        列设置
      </Button>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': '列设置', sx: { width: 280, p: 1.5 } } }}
      >
        <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
          行高
        </Typography>
        <Stack direction="row" spacing={1} role="group" aria-label="行高">
          {DENSITY_LABELS.map(([density, text]) => (
            <Button
              key={density}
              size="small"
              variant={settings.density === density ? 'contained' : 'outlined'}
              aria-pressed={settings.density === density}
              onClick={() => onChange({ ...settings, density })}
            >
              {text}
            </Button>
          ))}
        </Stack>
        <Divider sx={{ my: 1 }} />
        <Typography variant="subtitle2">显示的列</Typography>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, maxHeight: 360, overflowY: 'auto' }}>
          {all.map((c) => {
            const i = movable.indexOf(c.field);
            return (
              <Box component="li" key={c.field} sx={{ display: 'flex', alignItems: 'center' }}>
                <Checkbox
                  size="small"
                  checked={!settings.hidden.includes(c.field) || c.hideable === false}
                  disabled={c.hideable === false}
                  onChange={(e) => toggle(c.field, e.target.checked)}
                  slotProps={{ input: { 'aria-label': `显示「${c.headerName}」列` } }}
                />
                <Typography variant="body2" sx={{ flex: 1 }} noWrap>
                  {c.headerName}
                  {c.pin ? '（固定）' : ''}
                </Typography>
                {i >= 0 ? (
                  <>
                    <IconButton
                      size="small"
                      aria-label={`「${c.headerName}」上移`}
                      disabled={i === 0}
                      onClick={() => onChange(moveColumn(columns, settings, c.field, -1))}
                    >
                      <ArrowUpwardIcon fontSize="inherit" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={`「${c.headerName}」下移`}
                      disabled={i === movable.length - 1}
                      onClick={() => onChange(moveColumn(columns, settings, c.field, 1))}
                    >
                      <ArrowDownwardIcon fontSize="inherit" />
                    </IconButton>
                  </>
                ) : null}
              </Box>
            );
          })}
        </Box>
        <Divider sx={{ my: 1 }} />
        <Button size="small" onClick={() => onChange(undefined)} disabled={settings === DEFAULT_SETTINGS}>
          恢复默认
        </Button>
      </Popover>
    </>
  );
}

export default ColumnSettings;
