/**
 * 撮合详情: the seller's payment-method snapshot, the buyer's payment proof (a thumbnail that enlarges
 * on click), the appeal and who made it, the times, the arbitration; and the actions the match's
 * state allows (the page passes them in, behind match:opt).
 */
import type { ReactNode } from 'react';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { AppealBy, MatchStatus } from '../../../domain/matches';
import { PaymentType } from '../../../domain/payments';
import { formatTimeValue } from '../../components/columns';
import { Field, ImagePreview, Section } from '../../components/DetailParts';
import SideDrawer from '../../components/SideDrawer';
import { MoneyText } from '../../components/MoneyText';
import { StatusChip } from '../../components/StatusChip';
import type { ListMatchesApiResponse } from '../../services/generated/match';

export type Match = ListMatchesApiResponse['list'][number];

export default function MatchDrawer({
  match,
  onClose,
  actions,
}: {
  match: Match | null;
  onClose: () => void;
  /** The action buttons for this match (empty when none applies or the manager may not act). */
  actions?: ReactNode;
}) {
  const m = match;
  return (
    <SideDrawer
      open={m !== null}
      onClose={onClose}
      label="撮合详情"
      width={460}
      title={<>撮合详情{m ? ` #${m.id}` : ''}</>}
    >
      {m ? (
        <Stack spacing={2} divider={<Divider flexItem />}>
          <Section title="交易信息">
            <Field label="状态">
              <StatusChip value={m.status} map={MatchStatus.map} />
            </Field>
            <Field label="卖家">{`${m.sellerUid}（${m.sellerNickname || m.sellerPhone}）`}</Field>
            <Field label="买家">{`${m.buyerUid}（${m.buyerNickname || m.buyerPhone}）`}</Field>
            <Field label="数量">
              <MoneyText value={m.quantity} asset="LZ" showAsset />
            </Field>
            <Field label="单价">
              <MoneyText value={m.unitPrice} asset="USDT" showAsset />
            </Field>
            <Field label="总额">
              <MoneyText value={m.total} asset="USDT" showAsset />
            </Field>
          </Section>
          <Section title="卖家收款方式">
            <Field label="类型">{PaymentType.label(m.payment.type)}</Field>
            <Field label="姓名">{m.payment.name || '-'}</Field>
            <Field label="账号">{m.payment.account || '-'}</Field>
            {m.payment.bank ? <Field label="开户银行">{m.payment.bank}</Field> : null}
            {m.payment.qrUrl ? (
              <Field label="收款二维码">
                <ImagePreview src={m.payment.qrUrl} label="收款二维码" />
              </Field>
            ) : null}
          </Section>
          <Section title="付款凭证">
            <ImagePreview src={m.proofUrl} label="付款凭证" />
          </Section>
          {m.appealBy ? (
            <Section title="申诉">
              <Field label="申诉方">{AppealBy.label(m.appealBy)}</Field>
              <Field label="申诉原因">{m.appealReason || '-'}</Field>
            </Section>
          ) : null}
          <Section title="时间">
            <Field label="创建时间">{formatTimeValue(m.createdAt)}</Field>
            <Field label="付款截止">{formatTimeValue(m.expiresAt)}</Field>
            <Field label="付款时间">{formatTimeValue(m.paidAt) || '-'}</Field>
            <Field label="完成时间">{formatTimeValue(m.finishedAt) || '-'}</Field>
          </Section>
          {m.arbiterName || m.remark ? (
            <Section title="处理">
              <Field label="仲裁人">{m.arbiterName || '系统'}</Field>
              <Field label="备注">{m.remark || '-'}</Field>
            </Section>
          ) : null}
          {actions ? (
            <Stack direction="row" spacing={1} aria-label="撮合操作" role="group">
              {actions}
            </Stack>
          ) : null}
        </Stack>
      ) : null}
    </SideDrawer>
  );
}
