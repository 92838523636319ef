/**
 * 规格与库存: the spec dimensions (颜色: 红/蓝, 尺寸: S/M/L — a name and its values, at most three)
 * generate the table's rows; each row has its price, stock and image; 批量填充 sets every row's price
 * and/or stock. Rows keep what was typed when a value is added or removed elsewhere.
 */
import { useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { Asset } from '../../../domain/assets';
import { SkuLimits, type SpecDim } from '../../../domain/mallRules';
import { MoneyField, validateMoney, wholeNumberText } from '../../components/MoneyField';
import SkuImage from './SkuImage';
import { bulkFill, regenerate, validateStock, type SkuDraft } from './skuTable';

export interface SkuEditorProps {
  asset: Asset;
  dims: SpecDim[];
  rows: SkuDraft[];
  onChange: (dims: SpecDim[], rows: SkuDraft[]) => void;
  onBusy?: (busy: boolean) => void;
  /** Show each row's errors (after a save was tried). */
  showErrors: boolean;
}

function ValueInput({ onAdd, disabled }: { onAdd: (value: string) => void; disabled: boolean }) {
  const [text, setText] = useState('');
  const add = () => {
    const v = text.trim();
    if (v) onAdd(v);
    setText('');
  };
  return (
    <TextField
      size="small"
      placeholder="输入规格值后回车"
      value={text}
      disabled={disabled}
      onChange={(e) => setText(e.target.value.slice(0, SkuLimits.nameLength))}
      onKeyDown={(e: KeyboardEvent) => {
        if (
          e.key === 'Enter' &&
          !(e.nativeEvent as KeyboardEvent['nativeEvent'] & { isComposing?: boolean }).isComposing
        ) {
          e.preventDefault();
          add();
        }
      }}
      onBlur={add}
      sx={{ width: 160 }}
      slotProps={{ htmlInput: { 'aria-label': '新规格值' } }}
    />
  );
}

export default function SkuEditor({ asset, dims, rows, onChange, onBusy, showErrors }: SkuEditorProps) {
  const [fillPrice, setFillPrice] = useState('');
  const [fillStock, setFillStock] = useState('');
  const setDims = (next: SpecDim[]) => onChange(next, regenerate(next, rows));
  const setDim = (i: number, d: SpecDim) => setDims(dims.map((x, j) => (j === i ? d : x)));
  const setRow = (i: number, r: Partial<SkuDraft>) =>
    onChange(
      dims,
      rows.map((x, j) => (j === i ? { ...x, ...r } : x)),
    );
  const shown = dims.filter((d) => d.name.trim() && d.values.length);

  return (
    <Stack spacing={2}>
      {dims.map((d, i) => (
        <Box
          key={i}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
          aria-label={`规格${i + 1}`}
          role="group"
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <TextField
              size="small"
              label="规格名"
              placeholder="如：颜色"
              value={d.name}
              onChange={(e) => setDim(i, { ...d, name: e.target.value.slice(0, SkuLimits.nameLength) })}
              sx={{ width: 160 }}
            />
            <IconButton aria-label={`删除规格${i + 1}`} onClick={() => setDims(dims.filter((_, j) => j !== i))}>
              <DeleteIcon />
            </IconButton>
          </Stack>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            {d.values.map((v) => (
              <Chip key={v} label={v} onDelete={() => setDim(i, { ...d, values: d.values.filter((x) => x !== v) })} />
            ))}
            <ValueInput
              disabled={d.values.length >= SkuLimits.values}
              onAdd={(v) => !d.values.includes(v) && setDim(i, { ...d, values: [...d.values, v] })}
            />
          </Stack>
        </Box>
      ))}
      <Box>
        <Button
          variant="outlined"
          size="small"
          disabled={dims.length >= SkuLimits.dims}
          onClick={() => setDims([...dims, { name: '', values: [] }])}
        >
          添加规格
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
          最多{SkuLimits.dims}个规格；不添加规格时商品只有一个规格
        </Typography>
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="group" aria-label="批量填充">
        <MoneyField
          asset={asset}
          label="价格"
          size="small"
          value={fillPrice}
          onChange={(e) => setFillPrice(e.target.value)}
          sx={{ width: 180 }}
        />
        <TextField
          label="库存"
          size="small"
          value={fillStock}
          onChange={(e) => setFillStock(wholeNumberText(e.target.value))}
          sx={{ width: 140 }}
        />
        <Button
          variant="outlined"
          disabled={!fillPrice.trim() && !fillStock.trim()}
          onClick={() => onChange(dims, bulkFill(rows, fillPrice, fillStock))}
        >
          批量填充
        </Button>
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="规格明细">
          <TableHead>
            <TableRow>
              {shown.map((d) => (
                <TableCell key={d.name}>{d.name}</TableCell>
              ))}
              <TableCell>价格（{asset}）</TableCell>
              <TableCell>库存</TableCell>
              <TableCell>图片</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r, i) => {
              const priceError = showErrors ? validateMoney(r.price, asset, '价格') : null;
              // Shown as soon as it is not a whole number: "1.5" kept as typed, never read as 15.
              const stockError = showErrors || /\D/.test(r.stock) ? validateStock(r.stock) : null;
              return (
                <TableRow key={JSON.stringify(r.values)}>
                  {r.values.map((v, j) => (
                    <TableCell key={j}>{v}</TableCell>
                  ))}
                  <TableCell sx={{ minWidth: 150 }}>
                    <MoneyField
                      asset={asset}
                      size="small"
                      value={r.price}
                      onChange={(e) => setRow(i, { price: e.target.value })}
                      error={!!priceError}
                      helperText={priceError ?? undefined}
                      slotProps={{ htmlInput: { 'aria-label': `第${i + 1}行价格` } }}
                    />
                  </TableCell>
                  <TableCell sx={{ minWidth: 120 }}>
                    <TextField
                      size="small"
                      value={r.stock}
                      onChange={(e) => setRow(i, { stock: wholeNumberText(e.target.value) })}
                      error={!!stockError}
                      helperText={stockError ?? undefined}
                      slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': `第${i + 1}行库存` } }}
                    />
                  </TableCell>
                  <TableCell>
                    <SkuImage
                      label={`第${i + 1}行图片`}
                      value={r.image}
                      onChange={(image) => setRow(i, { image })}
                      onBusy={onBusy}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </Stack>
  );
}
