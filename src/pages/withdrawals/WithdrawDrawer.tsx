/**
 * 提现详情 / 提取详情: every field of one request, the address and hash whole with copy buttons (the list
 * shows their ends only), the member, the review and payout, and the actions its status allows.
 */
import type { ReactNode } from 'react';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { WithdrawStatus } from '../../../domain/withdrawals';
import { formatTimeValue } from '../../components/columns';
import { CopyText } from '../../components/CopyText';
import { Field, Section } from '../../components/DetailParts';
import { MoneyText } from '../../components/MoneyText';
import SideDrawer from '../../components/SideDrawer';
import { StatusChip } from '../../components/StatusChip';
import type { Withdraw } from './WithdrawListPage';

export default function WithdrawDrawer({
  row,
  label,
  onClose,
  actions,
}: {
  row: Withdraw | null;
  /** 提现 or 提取. */
  label: string;
  onClose: () => void;
  actions?: ReactNode;
}) {
  const asset = row?.type === 2 ? 'LZ' : 'USDT';
  return (
    <SideDrawer
      open={row !== null}
      onClose={onClose}
      label={`${label}详情`}
      width={480}
      title={`${label}详情${row ? ` #${row.id}` : ''}`}
    >
      {row ? (
        <Stack spacing={2} divider={<Divider flexItem />}>
          <Section title="申请">
            <Field label="状态">
              <StatusChip value={row.status} map={WithdrawStatus.map} />
            </Field>
            <Field label="会员">{`${row.uid}（${row.nickname || row.phone}）`}</Field>
            <Field label="金额">
              <MoneyText value={row.amount} asset={asset} showAsset />
            </Field>
            <Field label="手续费">
              <MoneyText value={row.fee} asset={asset} showAsset />
            </Field>
            <Field label="实际到账">
              <MoneyText value={row.actual} asset={asset} showAsset />
            </Field>
            <Field label="链">{row.chain}</Field>
            <Field label="地址">
              <CopyText value={row.address} label="地址" full />
            </Field>
          </Section>
          <Section title="审核与打款">
            <Field label="审核人">{row.auditorName || '-'}</Field>
            <Field label="交易哈希">
              <CopyText value={row.txHash} label="交易哈希" full />
            </Field>
            <Field label="备注">{row.remark || '-'}</Field>
          </Section>
          <Section title="时间">
            <Field label="申请时间">{formatTimeValue(row.createdAt)}</Field>
            <Field label="审核时间">{formatTimeValue(row.auditedAt) || '-'}</Field>
            <Field label="打款时间">{formatTimeValue(row.paidAt) || '-'}</Field>
          </Section>
          {actions ? (
            <Stack direction="row" spacing={1} role="group" aria-label={`${label}操作`}>
              {actions}
            </Stack>
          ) : null}
        </Stack>
      ) : null}
    </SideDrawer>
  );
}
