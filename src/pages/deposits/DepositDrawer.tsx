/**
 * 充值详情: one deposit whole — the addresses and hash with copy buttons, the proof image (enlarges on
 * click), the review — and the actions its status allows.
 */
import type { ReactNode } from 'react';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { DepositStatus } from '../../../domain/deposits';
import { formatTimeValue } from '../../components/columns';
import { CopyText } from '../../components/CopyText';
import { Field, ImagePreview, Section } from '../../components/DetailParts';
import { MoneyText } from '../../components/MoneyText';
import SideDrawer from '../../components/SideDrawer';
import { StatusChip } from '../../components/StatusChip';
import type { Deposit } from './DepositListPage';

export default function DepositDrawer({
  row,
  onClose,
  actions,
}: {
  row: Deposit | null;
  onClose: () => void;
  actions?: ReactNode;
}) {
  return (
    <SideDrawer
      open={row !== null}
      onClose={onClose}
      label="充值详情"
      width={480}
      title={`充值详情${row ? ` #${row.id}` : ''}`}
    >
      {row ? (
        <Stack spacing={2} divider={<Divider flexItem />}>
          <Section title="充值">
            <Field label="状态">
              <StatusChip value={row.status} map={DepositStatus.map} />
            </Field>
            <Field label="会员">{`${row.uid}（${row.nickname || row.phone}）`}</Field>
            <Field label="金额">
              <MoneyText value={row.amount} asset="USDT" showAsset />
            </Field>
            <Field label="链">{row.chain}</Field>
            <Field label="付款地址">
              <CopyText value={row.fromAddress} label="付款地址" full />
            </Field>
            <Field label="收款地址">
              <CopyText value={row.toAddress} label="收款地址" full />
            </Field>
            <Field label="交易哈希">
              <CopyText value={row.txHash} label="交易哈希" full />
            </Field>
          </Section>
          <Section title="凭证">
            <ImagePreview src={row.proofUrl} label="充值凭证" />
          </Section>
          <Section title="审核">
            <Field label="审核人">{row.auditorName || '-'}</Field>
            <Field label="备注">{row.remark || '-'}</Field>
            <Field label="提交时间">{formatTimeValue(row.createdAt)}</Field>
            <Field label="审核时间">{formatTimeValue(row.auditedAt) || '-'}</Field>
          </Section>
          {actions ? (
            <Stack direction="row" spacing={1} role="group" aria-label="充值操作">
              {actions}
            </Stack>
          ) : null}
        </Stack>
      ) : null}
    </SideDrawer>
  );
}
