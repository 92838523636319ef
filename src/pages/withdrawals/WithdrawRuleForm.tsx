/**
 * The rules of one withdrawal type (limits, daily times, fee, auto-approval, open hours), each field
 * checked the way the server checks it; the server's refusal shows above the form.
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { parseAsset, percentToRate, rateToPercent } from '../../../domain/money';
import { formatTime } from '../../../domain/time';
import { WithdrawAsset, WithdrawType } from '../../../domain/withdrawals';
import { errorMessage } from '../../components/FormDialog';
import { MoneyField, validateMoney } from '../../components/MoneyField';
import { useForm } from '../../components/useForm';
import type { GetWithdrawSettingApiResponse } from '../../services/generated/withdraw';
import { useSaveWithdrawSettingMutation } from '../../services/withdrawals';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import { feePercentHigh, feeRateError, openHoursError, timesError } from './withdrawRules';
import { useConfirm } from '../../components/useConfirm';

type RuleValues = {
  min: string;
  max: string;
  maxTimesPerDay: string;
  feeRate: string;
  feeMin: string;
  autoApproveMax: string;
  openHours: string;
};

export function WithdrawRuleForm({ setting, editable }: { setting: GetWithdrawSettingApiResponse; editable: boolean }) {
  const type = setting.type;
  const asset = WithdrawAsset[type];
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useSaveWithdrawSettingMutation();
  const [confirm, confirmDialog] = useConfirm();
  const [open, setOpen] = useState(setting.open);
  const [failure, setFailure] = useState<string | null>(null);
  const money = (label: string, allowZero: boolean) => (v: string) => validateMoney(v, asset, label, { allowZero });
  const form = useForm<RuleValues>(
    {
      min: setting.min,
      max: setting.max,
      maxTimesPerDay: String(setting.maxTimesPerDay),
      feeRate: rateToPercent(setting.feeRate),
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
      feeRate: { label: '手续费率（%）', required: true, validate: feeRateError },
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
    if (
      feePercentHigh(v.feeRate) &&
      !(await confirm({ content: `手续费率 ${v.feeRate.trim()}% 高于 10%，每笔提现将扣除较多手续费。确认保存？` }))
    )
      return;
    try {
      await save({
        body: {
          type,
          open,
          min: v.min.trim(),
          max: v.max.trim(),
          maxTimesPerDay: Number(v.maxTimesPerDay),
          feeRate: percentToRate(v.feeRate),
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
          helperText={form.errors.feeRate ?? '百分比，例如 1 表示 1%，0.5 表示 0.5%'}
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
      {confirmDialog}
    </Paper>
  );
}
