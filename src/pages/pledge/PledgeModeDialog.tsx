/**
 * 新增质押模式 / 编辑质押模式 (`pledge/mode/update`, no id: create). The daily rate is shown and entered
 * as a percentage ("1.23" %) and sent as the exact decimal rate ("0.0123"); every field is checked the
 * way the server checks it, and the server's refusal shows in the dialog.
 */
import { useEffect } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { percentToRate, ratePercent } from '../../../domain/economy';
import { parseAsset } from '../../../domain/money';
import { PLEDGE_MAX_DAYS, PledgeModeStatus } from '../../../domain/pledge';
import EnumSelect from '../../components/EnumSelect';
import FormDialog from '../../components/FormDialog';
import { MoneyField, moneyRule } from '../../components/MoneyField';
import useForm from '../../components/useForm';
import type { ListPledgeModesApiResponse } from '../../services/generated/pledge';
import { useSavePledgeModeMutation } from '../../services/pledge';

export type PledgeMode = ListPledgeModesApiResponse['list'][number];

type Values = {
  name: string;
  days: string;
  percent: string;
  minAmount: string;
  maxAmount: string;
  status: string;
  sort: string;
};
const EMPTY: Values = { name: '', days: '', percent: '', minAmount: '', maxAmount: '', status: '1', sort: '0' };

/** A daily rate typed as a percentage: 0 < p ≤ 5 with at most 4 decimals (the rate's 6). */
export function validatePercent(value: string): string | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return '日收益率格式不正确';
  if ((m[2] ?? '').replace(/0+$/, '').length > 4) return '日收益率最多4位小数';
  const rate = percentToRate(value);
  if (rate === null || /^0(\.0*)?$/.test(rate)) return '日收益率必须大于0';
  const [whole, frac = ''] = rate.split('.');
  if (Number(whole) > 0 || frac.padEnd(6, '0') > '050000') return '日收益率不能超过5%';
  return null;
}

const valuesOf = (mode: PledgeMode): Values => ({
  name: mode.name,
  days: String(mode.days),
  percent: ratePercent(mode.rate).slice(0, -1),
  minAmount: mode.minAmount,
  maxAmount: mode.maxAmount,
  status: String(mode.status),
  sort: String(mode.sort),
});

export default function PledgeModeDialog({
  open,
  mode,
  onClose,
}: {
  open: boolean;
  mode: PledgeMode | null;
  onClose: () => void;
}) {
  const [save] = useSavePledgeModeMutation();
  const form = useForm<Values>(EMPTY, {
    name: {
      label: '模式名称',
      required: true,
      validate: (v) => (v.trim().length > 40 ? '模式名称长度不能超过40个字符' : null),
    },
    days: {
      label: '天数',
      required: true,
      validate: (v) =>
        /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= PLEDGE_MAX_DAYS
          ? null
          : `天数为1-${PLEDGE_MAX_DAYS}的整数`,
    },
    percent: { label: '日收益率', required: true, validate: (v) => validatePercent(v) },
    minAmount: { label: '最低金额', required: true, validate: moneyRule('LZ') },
    maxAmount: {
      label: '最高金额',
      required: true,
      validate: (v, values, label) => {
        const own = moneyRule('LZ')(v, values, label);
        if (own) return own;
        const min = parseAsset(values.minAmount.trim(), 'LZ');
        const max = parseAsset(v.trim(), 'LZ');
        return min.ok && max.ok && max.value < min.value ? '最高金额不能低于最低金额' : null;
      },
    },
    status: { label: '状态', required: true },
    sort: {
      label: '排序',
      required: true,
      validate: (v) => (/^\d{1,5}$/.test(v.trim()) ? null : '排序为0-99999的整数'),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (!open) return;
    reset(mode ? valuesOf(mode) : EMPTY);
  }, [open, mode, reset]);

  const submit = () => {
    const v = form.values;
    const body = {
      ...(mode ? { id: mode.id } : {}),
      name: v.name.trim(),
      days: Number(v.days.trim()),
      rate: percentToRate(v.percent) ?? v.percent,
      minAmount: v.minAmount.trim(),
      maxAmount: v.maxAmount.trim(),
      status: Number(v.status) as 0 | 1,
      sort: Number(v.sort.trim()),
    };
    return save({ body }).unwrap();
  };

  return (
    <FormDialog
      open={open}
      title={mode ? '编辑质押模式' : '新增质押模式'}
      form={form}
      onClose={onClose}
      onSubmit={submit}
      successText={mode ? '保存成功' : '新增成功'}
      maxWidth="xs"
    >
      <TextField {...form.field('name')} autoComplete="off" />
      <TextField {...form.field('days')} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
      <TextField
        {...form.field('percent')}
        helperText={form.errors.percent ?? '每日收益占质押数量的百分比，最高5%'}
        slotProps={{
          htmlInput: { inputMode: 'decimal' },
          input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
        }}
      />
      <MoneyField asset="LZ" {...form.field('minAmount')} />
      <MoneyField asset="LZ" {...form.field('maxAmount')} />
      <EnumSelect options={PledgeModeStatus} {...form.field('status')} />
      <TextField
        {...form.field('sort')}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        helperText={form.errors.sort ?? '数字越小越靠前'}
      />
    </FormDialog>
  );
}
