/** 发货: the express company (from the list the server accepts) and the tracking number, checked as the server checks them. */
import { useEffect } from 'react';
import TextField from '@mui/material/TextField';
import { ExpressCompanies, type ExpressCompany } from '../../../domain/mall';
import { TRACKING_NO_PATTERN } from '../../../domain/mallRules';
import EnumSelect from '../../components/EnumSelect';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';

const EMPTY = { expressCompany: '', trackingNo: '' };

export default function ShipDialog({
  order,
  onClose,
  onSubmit,
}: {
  order: { id: number; orderNo: string } | null;
  onClose: () => void;
  onSubmit: (v: { expressCompany: ExpressCompany; trackingNo: string }) => Promise<unknown>;
}) {
  const form = useForm(EMPTY, {
    expressCompany: { label: '快递公司', required: true },
    trackingNo: {
      label: '快递单号',
      required: true,
      validate: (v) => (new RegExp(TRACKING_NO_PATTERN).test(v.trim()) ? null : '快递单号为6-30位字母或数字'),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (order) reset(EMPTY);
  }, [order, reset]);
  return (
    <FormDialog
      open={order !== null}
      title={`订单发货${order ? ` ${order.orderNo}` : ''}`}
      form={form}
      onClose={onClose}
      onSubmit={() =>
        onSubmit({
          expressCompany: form.values.expressCompany as ExpressCompany,
          trackingNo: form.values.trackingNo.trim(),
        })
      }
      successText="发货成功"
      maxWidth="xs"
    >
      <EnumSelect options={[...ExpressCompanies]} {...form.field('expressCompany')} />
      <TextField {...form.field('trackingNo')} autoComplete="off" />
    </FormDialog>
  );
}
