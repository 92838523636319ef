/**
 * 充值设置: open or close deposits, the minimum, the chains members may use, and the tips shown on
 * the members' deposit screen. Checked as the server checks it: open needs at least one chain.
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Chains, type Chain } from '../../../domain/deposits';
import { formatTime } from '../../../domain/time';
import { errorMessage } from '../../components/FormDialog';
import { MoneyField, moneyRule } from '../../components/MoneyField';
import { useForm } from '../../components/useForm';
import type { GetDepositSettingApiResponse } from '../../services/generated/deposit';
import { useGetDepositSettingQuery, useSaveDepositSettingMutation } from '../../services/deposits';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

export const TIPS_MAX = 1000;

function SettingForm({ setting }: { setting: GetDepositSettingApiResponse }) {
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useSaveDepositSettingMutation();
  const [open, setOpen] = useState(setting.open);
  const [chains, setChains] = useState<Chain[]>(setting.chains);
  const [chainsError, setChainsError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm(
    { min: setting.min, tips: setting.tips },
    {
      min: { label: '最低充值金额', required: true, validate: moneyRule('USDT') },
      tips: { label: '充值提示', validate: (v) => (v.length > TIPS_MAX ? `充值提示最多${TIPS_MAX}个字符` : null) },
    },
  );

  const toggle = (chain: Chain, on: boolean) => {
    const next = Chains.filter((c) => (c === chain ? on : chains.includes(c)));
    setChains(next);
    if (next.length > 0) setChainsError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const fieldsOk = form.validate();
    const chainsOk = !open || chains.length > 0;
    setChainsError(chainsOk ? null : '开放充值时至少选择一条链');
    if (!fieldsOk || !chainsOk) return;
    try {
      await save({ body: { open, min: form.values.min.trim(), chains, tips: form.values.tips.trim() } }).unwrap();
      dispatch(toastShown('保存成功', 'success'));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" noValidate onSubmit={submit} aria-label="充值设置">
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        {failure ? (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        ) : null}
        <FormControlLabel
          control={<Switch checked={open} onChange={(e) => setOpen(e.target.checked)} />}
          label={`充值开关（${open ? '开启' : '关闭'}）`}
        />
        <MoneyField asset="USDT" {...form.field('min')} />
        <FormControl error={Boolean(chainsError)} component="fieldset">
          <FormLabel component="legend">开放的链</FormLabel>
          <FormGroup row>
            {Chains.map((c) => (
              <FormControlLabel
                key={c}
                control={<Checkbox checked={chains.includes(c)} onChange={(e) => toggle(c, e.target.checked)} />}
                label={c}
              />
            ))}
          </FormGroup>
          {chainsError ? <FormHelperText>{chainsError}</FormHelperText> : null}
        </FormControl>
        <TextField
          {...form.field('tips')}
          multiline
          minRows={4}
          helperText={form.errors.tips ?? `${form.values.tips.length}/${TIPS_MAX}，展示在会员充值页面`}
          slotProps={{ htmlInput: { maxLength: TIPS_MAX } }}
        />
        {setting.updatedAt ? (
          <Typography variant="caption" color="text.secondary">
            {`最后修改：${formatTime(setting.updatedAt)} ${setting.updatedBy}`}
          </Typography>
        ) : null}
        <div>
          <Button type="submit" variant="contained" disabled={isLoading}>
            保存
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}

export default function DepositSettingPage() {
  const { data, error, isLoading } = useGetDepositSettingQuery();
  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  if (isLoading || !data) return <Typography color="text.secondary">加载中...</Typography>;
  return <SettingForm key={data.updatedAt ?? 0} setting={data} />;
}
