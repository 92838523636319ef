/** The payout wallet of one withdrawal type: chain, address (checked against the chain), remark. */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Chains, chainAddressMessage, isChain, isChainAddress } from '../../../domain/deposits';
import { WithdrawType } from '../../../domain/withdrawals';
import EnumSelect from '../../components/EnumSelect';
import { errorMessage } from '../../components/FormDialog';
import { useForm } from '../../components/useForm';
import type { GetWithdrawSettingApiResponse } from '../../services/generated/withdraw';
import { useSaveWithdrawAccountMutation } from '../../services/withdrawals';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

type WalletValues = { chain: string; address: string; remark: string };

export function WithdrawWalletForm({
  setting,
  editable,
}: {
  setting: GetWithdrawSettingApiResponse;
  editable: boolean;
}) {
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
        <EnumSelect options={Chains} {...form.field('chain')} disabled={!editable} />
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
