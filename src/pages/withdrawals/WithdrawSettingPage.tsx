/**
 * 提现设置: the rules of each type (tabs 提现 / 提取, the tab in the URL) and its payout wallet. Every
 * field is checked the way the server checks it before anything is sent; the server's refusal shows
 * above the form. Without withdrawSetting:update the forms are read-only.
 */
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Chains, chainAddressMessage, isChain, isChainAddress } from '../../../domain/deposits';
import { parseAsset, parseMinor } from '../../../domain/money';
import { formatTime } from '../../../domain/time';
import { parseOpenHours, WithdrawAsset, WithdrawType, type WithdrawType as WType } from '../../../domain/withdrawals';
import { errorMessage } from '../../components/FormDialog';
import { MoneyField, validateMoney } from '../../components/MoneyField';
import { useCan } from '../../components/useCan';
import { useForm } from '../../components/useForm';
import type { GetWithdrawSettingApiResponse } from '../../services/generated/api';
import {
  useGetWithdrawSettingQuery,
  useSaveWithdrawAccountMutation,
  useSaveWithdrawSettingMutation,
} from '../../services/money';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

type Setting = GetWithdrawSettingApiResponse;

/** Places a fee rate may have (server/modules/settings/values.ts RATE_DECIMALS). */
const RATE_DECIMALS = 6;

export function feeRateError(value: string): string | null {
  const r = parseMinor(value.trim(), RATE_DECIMALS, { allowZero: true });
  if (!r.ok) {
    if (r.reason === 'decimals') return `手续费率小数位数过多（最多${RATE_DECIMALS}位）`;
    if (r.reason === 'negative') return '手续费率不能为负数';
    return '手续费率格式不正确';
  }
  return r.value >= 10n ** BigInt(RATE_DECIMALS) ? '手续费率必须小于1' : null;
}

export function openHoursError(value: string): string | null {
  return parseOpenHours(value.trim()) ? null : '开放时间格式不正确，例如 09:00-18:00';
}

export function timesError(value: string): string | null {
  return /^\d+$/.test(value.trim()) && Number(value) <= 1000 ? null : '每日次数须为0到1000的整数';
}

type RuleValues = {
  min: string;
  max: string;
  maxTimesPerDay: string;
  feeRate: string;
  feeMin: string;
  autoApproveMax: string;
  openHours: string;
};

function SettingForm({ setting, editable }: { setting: Setting; editable: boolean }) {
  const type = setting.type;
  const asset = WithdrawAsset[type];
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useSaveWithdrawSettingMutation();
  const [open, setOpen] = useState(setting.open);
  const [failure, setFailure] = useState<string | null>(null);
  const money = (label: string, allowZero: boolean) => (v: string) => validateMoney(v, asset, label, { allowZero });
  const form = useForm<RuleValues>(
    {
      min: setting.min,
      max: setting.max,
      maxTimesPerDay: String(setting.maxTimesPerDay),
      feeRate: setting.feeRate,
      feeMin: setting.feeMin,
      autoApproveMax: setting.autoApproveMax,
      openHours: setting.openHours,
    },
    {
      min: { label: '单笔最低金额', required: true, validate: money('单笔最低金额', false) },
      max: {
        label: '单笔最高金额',
        required: true,
        validate: (v, values) => {
          const own = money('单笔最高金额', true)(v);
          if (own) return own;
          const max = parseAsset(v.trim(), asset, { allowZero: true });
          const min = parseAsset(values.min.trim(), asset);
          return max.ok && min.ok && max.value !== 0n && max.value < min.value
            ? '单笔最高金额不能低于单笔最低金额'
            : null;
        },
      },
      maxTimesPerDay: { label: '每日次数', required: true, validate: timesError },
      feeRate: { label: '手续费率', required: true, validate: feeRateError },
      feeMin: { label: '最低手续费', required: true, validate: money('最低手续费', true) },
      autoApproveMax: { label: '自动审核额度', required: true, validate: money('自动审核额度', true) },
      openHours: { label: '开放时间', required: true, validate: openHoursError },
    },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!form.validate()) return;
    const v = form.values;
    try {
      await save({
        body: {
          type,
          open,
          min: v.min.trim(),
          max: v.max.trim(),
          maxTimesPerDay: Number(v.maxTimesPerDay),
          feeRate: v.feeRate.trim(),
          feeMin: v.feeMin.trim(),
          autoApproveMax: v.autoApproveMax.trim(),
          openHours: v.openHours.trim(),
        },
      }).unwrap();
      dispatch(toastShown('保存成功', 'success'));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  const label = WithdrawType.label(type);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" noValidate onSubmit={submit} aria-label={`${label}规则`}>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <Typography variant="subtitle1">{`${label}规则（${asset}）`}</Typography>
        {failure ? (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        ) : null}
        <FormControlLabel
          control={<Switch checked={open} onChange={(e) => setOpen(e.target.checked)} disabled={!editable} />}
          label={`${label}开关（${open ? '开启' : '关闭'}）`}
        />
        <MoneyField asset={asset} {...form.field('min')} disabled={!editable} />
        <MoneyField
          asset={asset}
          allowZero
          {...form.field('max')}
          helperText={form.errors.max ?? '0 表示不限'}
          disabled={!editable}
        />
        <TextField
          {...form.field('maxTimesPerDay')}
          helperText={form.errors.maxTimesPerDay ?? '每个会员每日可申请次数，0 表示不限'}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          disabled={!editable}
        />
        <TextField
          {...form.field('feeRate')}
          helperText={form.errors.feeRate ?? '小数，例如 0.01 表示 1%'}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          disabled={!editable}
        />
        <MoneyField asset={asset} allowZero {...form.field('feeMin')} disabled={!editable} />
        <MoneyField
          asset={asset}
          allowZero
          {...form.field('autoApproveMax')}
          helperText={form.errors.autoApproveMax ?? '不超过此金额的申请自动审核通过，0 表示全部人工审核'}
          disabled={!editable}
        />
        <TextField
          {...form.field('openHours')}
          helperText={form.errors.openHours ?? '北京时间，例如 09:00-18:00；结束早于开始表示跨夜'}
          disabled={!editable}
        />
        {setting.updatedAt ? (
          <Typography variant="caption" color="text.secondary">
            {`最后修改：${formatTime(setting.updatedAt)} ${setting.updatedBy}`}
          </Typography>
        ) : null}
        {editable ? (
          <div>
            <Button type="submit" variant="contained" disabled={isLoading}>
              {`保存${label}设置`}
            </Button>
          </div>
        ) : null}
      </Stack>
    </Paper>
  );
}

type WalletValues = { chain: string; address: string; remark: string };

function WalletForm({ setting, editable }: { setting: Setting; editable: boolean }) {
  const type = setting.type;
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useSaveWithdrawAccountMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<WalletValues>(
    { chain: setting.account.chain || 'TRC20', address: setting.account.address, remark: setting.account.remark },
    {
      chain: { label: '链', required: true },
      address: {
        label: '钱包地址',
        required: true,
        validate: (v, values) =>
          isChain(values.chain) && !isChainAddress(values.chain, v.trim()) ? chainAddressMessage(values.chain) : null,
      },
      remark: { label: '备注', validate: (v) => (v.length > 200 ? '备注最多200个字符' : null) },
    },
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!form.validate()) return;
    const v = form.values;
    if (!isChain(v.chain)) return;
    try {
      await save({ body: { type, chain: v.chain, address: v.address.trim(), remark: v.remark.trim() } }).unwrap();
      dispatch(toastShown('保存成功', 'success'));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };
  const label = WithdrawType.label(type);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      component="form"
      noValidate
      onSubmit={submit}
      aria-label={`${label}出款钱包`}
    >
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <Typography variant="subtitle1">{`${label}出款钱包`}</Typography>
        {failure ? (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        ) : null}
        <TextField select {...form.field('chain')} disabled={!editable}>
          {Chains.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <TextField {...form.field('address')} disabled={!editable} slotProps={{ htmlInput: { maxLength: 100 } }} />
        <TextField {...form.field('remark')} disabled={!editable} slotProps={{ htmlInput: { maxLength: 200 } }} />
        {editable ? (
          <div>
            <Button type="submit" variant="contained" disabled={isLoading}>
              保存出款钱包
            </Button>
          </div>
        ) : null}
      </Stack>
    </Paper>
  );
}

function TypeSettings({ type }: { type: WType }) {
  const { data, error, isLoading } = useGetWithdrawSettingQuery({ type });
  const editable = useCan('withdrawSetting:update');
  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  if (isLoading || !data) return <Typography color="text.secondary">加载中...</Typography>;
  // Keyed by the saved time: a save (or another manager's, on refetch) refills the forms.
  return (
    <Stack spacing={2}>
      <SettingForm key={`s-${data.updatedAt ?? 0}`} setting={data} editable={editable} />
      <WalletForm key={`a-${data.account.updatedAt ?? 0}`} setting={data} editable={editable} />
    </Stack>
  );
}

export default function WithdrawSettingPage() {
  const [search, setSearch] = useSearchParams();
  const type: WType = search.get('type') === '2' ? 2 : 1;
  return (
    <Stack spacing={2}>
      <Tabs
        value={type}
        onChange={(_e, next: WType) =>
          setSearch((cur) => {
            const p = new URLSearchParams(cur);
            if (next === 1) p.delete('type');
            else p.set('type', String(next));
            return p;
          })
        }
        aria-label="设置类型"
      >
        {WithdrawType.values.map((v) => (
          <Tab key={v} value={v} label={WithdrawType.label(v)} />
        ))}
      </Tabs>
      <TypeSettings key={type} type={type} />
    </Stack>
  );
}
