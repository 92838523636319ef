/** 新增专区 / 编辑专区 (`zone/opt` create | update): name, leader uid (a member), sort. */
import { useEffect } from 'react';
import TextField from '@mui/material/TextField';
import { UID_PATTERN } from '../../../domain/members';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';
import type { ListZonesApiResponse } from '../../services/generated/zone';
import { useZoneOptMutation } from '../../services/members';

export type ZoneRow = ListZonesApiResponse['list'][number];
type Values = { name: string; leaderUid: string; sort: string };
const EMPTY: Values = { name: '', leaderUid: '', sort: '0' };

export default function ZoneDialog({
  open,
  zone,
  onClose,
}: {
  open: boolean;
  zone: ZoneRow | null;
  onClose: () => void;
}) {
  const [opt] = useZoneOptMutation();
  const form = useForm<Values>(EMPTY, {
    name: {
      label: '专区名称',
      required: true,
      validate: (v) => (v.trim().length > 50 ? '专区名称最多50个字符' : null),
    },
    leaderUid: {
      label: '负责人UID',
      validate: (v) => (new RegExp(UID_PATTERN).test(v.trim()) ? null : '负责人UID为8位数字'),
    },
    sort: {
      label: '排序',
      required: true,
      validate: (v) => (/^\d{1,4}$/.test(v.trim()) ? null : '排序为0-9999的整数'),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (!open) return;
    reset(zone ? { name: zone.name, leaderUid: zone.leaderUid ?? '', sort: String(zone.sort) } : EMPTY);
  }, [open, zone, reset]);

  const submit = () => {
    const v = form.values;
    const fields = { name: v.name.trim(), leaderUid: v.leaderUid.trim(), sort: Number(v.sort.trim()) };
    return opt({
      body: zone ? { action: 'update', id: zone.id, ...fields } : { action: 'create', ...fields },
    }).unwrap();
  };

  return (
    <FormDialog
      open={open}
      title={zone ? '编辑专区' : '新增专区'}
      form={form}
      onClose={onClose}
      onSubmit={submit}
      successText={zone ? '保存成功' : '新增成功'}
      maxWidth="xs"
    >
      <TextField {...form.field('name')} autoComplete="off" />
      <TextField {...form.field('leaderUid')} autoComplete="off" placeholder="留空表示无负责人" />
      <TextField
        {...form.field('sort')}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        helperText={form.errors.sort ?? '数字越小越靠前'}
      />
    </FormDialog>
  );
}
