/**
 * 调整余额 (`member/opt` adjust): asset, a signed amount (a minus sign debits) and a required remark.
 * The bill is 后台调整; a debit that would take available below zero is refused by the server (409).
 * Money moves only after a second confirmation that says who gets how much of which asset.
 */
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { Assets, isAsset, type Asset } from '../../../domain/assets';
import FormDialog, { KEEP_OPEN } from '../../components/FormDialog';
import { useConfirm } from '../../components/useConfirm';
import MoneyField, { moneyRule } from '../../components/MoneyField';
import { formatMoneyText } from '../../components/MoneyText';
import useForm from '../../components/useForm';
import EnumSelect from '../../components/EnumSelect';
import { useMemberOptMutation } from '../../services/members';
import type { MemberRow } from './memberTypes';

type Values = { asset: string; amount: string; remark: string };
const EMPTY: Values = { asset: 'USDT', amount: '', remark: '' };

export default function AdjustDialog({ member, onClose }: { member: MemberRow | null; onClose: () => void }) {
  const [opt] = useMemberOptMutation();
  const [confirm, confirmDialog] = useConfirm();
  const form = useForm<Values>(EMPTY, {
    asset: { label: '币种', required: true },
    amount: {
      label: '调整金额',
      required: true,
      validate: (v, values) =>
        moneyRule(isAsset(values.asset) ? values.asset : 'USDT', { allowNegative: true })(v, values, '调整金额'),
    },
    remark: { label: '备注', required: true, validate: (v) => (v.trim().length > 200 ? '备注最多200个字符' : null) },
  });
  const { reset } = form;
  useEffect(() => {
    if (member) reset(EMPTY);
  }, [member, reset]);
  const asset: Asset = isAsset(form.values.asset) ? form.values.asset : 'USDT';
  const balance = member?.balances[asset];

  return (
    <>
      <FormDialog
        open={member !== null}
        title="调整余额"
        form={form}
        onClose={onClose}
        successText="调整成功"
        onSubmit={async () => {
          const amount = form.values.amount.trim();
          const debit = amount.startsWith('-');
          const shown = formatMoneyText(debit ? amount.slice(1) : amount, asset, { showAsset: true });
          const sure = await confirm({
            title: '确认调整余额',
            content: `确认为会员 ${member!.uid}（${member!.nickname}）${debit ? '扣减' : '增加'} ${shown}？`,
            danger: debit,
          });
          if (!sure) return KEEP_OPEN;
          return opt({
            body: { id: member!.id, action: 'adjust', asset, amount, remark: form.values.remark.trim() },
          }).unwrap();
        }}
      >
        {member ? (
          <Alert severity="info" icon={false} role="status">
            会员 {member.uid}（{member.nickname}）当前{asset}可用{' '}
            {formatMoneyText(balance?.available ?? '0', asset, { showAsset: true })}，冻结{' '}
            {formatMoneyText(balance?.frozen ?? '0', asset, { showAsset: true })}
          </Alert>
        ) : null}
        <EnumSelect {...form.field('asset')} options={Assets} />
        <MoneyField
          asset={asset}
          allowNegative
          {...form.field('amount')}
          placeholder="增加填正数，扣减填负数"
          helperText={form.errors.amount ?? '增加填正数，扣减填负数（如 -10）'}
        />
        <TextField {...form.field('remark')} multiline minRows={2} />
      </FormDialog>
      {confirmDialog}
    </>
  );
}
