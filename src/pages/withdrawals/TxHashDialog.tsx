/**
 * 确认打款: the transaction hash of the payout. Required for one record (checked against its chain's
 * format); for a batch it is optional and shared by every record (one payout transaction).
 */
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormDialog } from '../../components/FormDialog';
import { useForm } from '../../components/useForm';

/** TRC20: 64 hex digits; ERC20: 0x + 64 hex digits (as the deposit form checks them). */
export const TX_HASH_PATTERN: Record<string, RegExp> = { TRC20: /^[0-9a-fA-F]{64}$/, ERC20: /^0x[0-9a-fA-F]{64}$/ };

export function txHashError(value: string, chain?: string): string | null {
  const text = value.trim();
  const patterns = chain && TX_HASH_PATTERN[chain] ? [TX_HASH_PATTERN[chain]] : Object.values(TX_HASH_PATTERN);
  if (patterns.some((p) => p.test(text))) return null;
  if (chain === 'TRC20') return '交易哈希格式不正确（TRC20为64位十六进制）';
  if (chain === 'ERC20') return '交易哈希格式不正确（ERC20为0x开头加64位十六进制）';
  return '交易哈希格式不正确';
}

export interface TxHashDialogProps {
  open: boolean;
  /** Records being paid. */
  count: number;
  /** The record's chain when one record is paid; undefined for a batch. */
  chain?: string;
  onClose: () => void;
  onSubmit: (txHash: string) => Promise<unknown>;
}

export default function TxHashDialog({ open, count, chain, onClose, onSubmit }: TxHashDialogProps) {
  const single = chain !== undefined;
  const form = useForm(
    { txHash: '' },
    { txHash: { label: '交易哈希', required: single, validate: (v) => txHashError(v, chain) } },
  );
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) form.reset({ txHash: '' });
  }
  return (
    <FormDialog
      open={open}
      title="确认打款"
      form={form}
      onClose={onClose}
      onSubmit={() => onSubmit(form.values.txHash.trim())}
      maxWidth="sm"
    >
      <Typography>
        {single
          ? `确认已向会员地址打款？请填写链上交易哈希（${chain}）。`
          : `确认已为选中的 ${count} 条记录打款？可填写同一笔出款交易的哈希（选填）。`}
      </Typography>
      <TextField {...form.field('txHash')} autoFocus fullWidth slotProps={{ htmlInput: { maxLength: 100 } }} />
    </FormDialog>
  );
}
