/** 订单详情: the product as bought (snapshot), the payment, the receiver, the delivery, the times, and the actions the order's state allows. */
import type { ReactNode } from 'react';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import type { Asset } from '../../../domain/assets';
import { OrderStatus, ProductKind } from '../../../domain/mall';
import { thumbOf } from '../../../domain/formats';
import { formatTimeValue } from '../../components/columns';
import { Field, ImagePreview, Section } from '../../components/DetailParts';
import { MoneyText } from '../../components/MoneyText';
import SideDrawer from '../../components/SideDrawer';
import { StatusChip } from '../../components/StatusChip';
import type { ListOrdersApiResponse } from '../../services/generated/order';

export type Order = ListOrdersApiResponse['list'][number];

export default function OrderDrawer({
  order,
  onClose,
  actions,
}: {
  order: Order | null;
  onClose: () => void;
  actions?: ReactNode;
}) {
  const o = order;
  const asset = o?.asset as Asset;
  return (
    <SideDrawer
      open={o !== null}
      onClose={onClose}
      label="订单详情"
      width={460}
      title={<>订单详情{o ? ` ${o.orderNo}` : ''}</>}
    >
      {o ? (
        <Stack spacing={2} divider={<Divider flexItem />}>
          <Section title="订单信息">
            <Field label="状态">
              <StatusChip value={o.status} map={OrderStatus.map} />
            </Field>
            <Field label="订单号">{o.orderNo}</Field>
            <Field label="会员">{`${o.uid}（${o.nickname || o.phone}）`}</Field>
            <Field label="下单时间">{formatTimeValue(o.createdAt)}</Field>
          </Section>
          <Section title="商品">
            <ImagePreview src={o.image} thumb={o.image ? thumbOf(o.image) : undefined} label="商品图片" size={88} />
            <Field label="商品">{`${o.productName}（${ProductKind.label(o.kind)}）`}</Field>
            <Field label="规格">{o.spec || '-'}</Field>
            <Field label="单价">
              <MoneyText value={o.unitPrice} asset={asset} showAsset />
            </Field>
            <Field label="数量">{o.quantity}</Field>
            <Field label="实付金额">
              <MoneyText value={o.total} asset={asset} showAsset />
            </Field>
            {o.seedId ? <Field label="种子">{`#${o.seedId}`}</Field> : null}
          </Section>
          {o.kind === ProductKind.is.goods ? (
            <Section title="收货信息">
              <Field label="收货人">{o.receiverName || '-'}</Field>
              <Field label="电话">{o.receiverPhone || '-'}</Field>
              <Field label="地址">{o.receiverAddress || '-'}</Field>
            </Section>
          ) : null}
          {o.trackingNo ? (
            <Section title="物流">
              <Field label="快递公司">{o.expressCompany}</Field>
              <Field label="快递单号">{o.trackingNo}</Field>
              <Field label="发货时间">{formatTimeValue(o.shippedAt)}</Field>
            </Section>
          ) : null}
          {o.finishedAt || o.remark ? (
            <Section title="处理">
              <Field label="完成/取消">{formatTimeValue(o.finishedAt) || '-'}</Field>
              <Field label="操作人">{o.operatorName || '-'}</Field>
              <Field label="取消原因">{o.remark || '-'}</Field>
            </Section>
          ) : null}
          {actions ? (
            <Stack direction="row" spacing={1} aria-label="订单操作" role="group">
              {actions}
            </Stack>
          ) : null}
        </Stack>
      ) : null}
    </SideDrawer>
  );
}
