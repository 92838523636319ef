/** 新增会员 (`member/create`): phone, password, nickname, optional inviter uid and zone. */
import { useEffect } from 'react';
import TextField from '@mui/material/TextField';
import { MEMBER_PASSWORD_PATTERN, PHONE_PATTERN, UID_PATTERN, ZoneStatus } from '../../../domain/members';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';
import EnumSelect from '../../components/EnumSelect';
import { useCreateMemberMutation } from '../../services/members';

type Values = { phone: string; password: string; nickname: string; inviterUid: string; zoneId: string };
const EMPTY: Values = { phone: '', password: '', nickname: '', inviterUid: '', zoneId: '' };

export interface ZoneOption {
  id: number;
  name: string;
  status: number;
}

export default function MemberCreateDialog({
  open,
  zones,
  onClose,
}: {
  open: boolean;
  zones: ZoneOption[];
  onClose: () => void;
}) {
  const [create] = useCreateMemberMutation();
  const form = useForm<Values>(EMPTY, {
    phone: {
      label: '手机号',
      required: true,
      validate: (v) => (new RegExp(PHONE_PATTERN).test(v.trim()) ? null : '手机号格式不正确'),
    },
    password: {
      label: '登录密码',
      required: true,
      validate: (v) => (new RegExp(MEMBER_PASSWORD_PATTERN).test(v) ? null : '登录密码为6-20位字母和数字组合'),
    },
    nickname: { label: '昵称', required: true, validate: (v) => (v.trim().length > 50 ? '昵称最多50个字符' : null) },
    inviterUid: {
      label: '邀请人UID',
      validate: (v) => (new RegExp(UID_PATTERN).test(v.trim()) ? null : '邀请人UID为8位数字'),
    },
    zoneId: { label: '专区' },
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset(EMPTY);
  }, [open, reset]);

  const submit = () => {
    const v = form.values;
    return create({
      body: {
        phone: v.phone.trim(),
        password: v.password,
        nickname: v.nickname.trim(),
        ...(v.inviterUid.trim() ? { inviterUid: v.inviterUid.trim() } : {}),
        ...(v.zoneId ? { zoneId: Number(v.zoneId) } : {}),
      },
    }).unwrap();
  };

  return (
    <FormDialog open={open} title="新增会员" form={form} onClose={onClose} onSubmit={submit} successText="新增成功">
      <TextField {...form.field('phone')} autoComplete="off" slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
      <TextField {...form.field('password')} type="password" autoComplete="new-password" />
      <TextField {...form.field('nickname')} autoComplete="off" />
      <TextField {...form.field('inviterUid')} autoComplete="off" />
      <EnumSelect
        empty="无"
        options={zones.filter((z) => z.status === ZoneStatus.is.enabled).map((z) => ({ value: z.id, label: z.name }))}
        {...form.field('zoneId')}
      />
    </FormDialog>
  );
}
