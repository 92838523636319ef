/** 修改等级 / 修改专区 (`member/opt` setLevel, setZone): one select, confirmed by 确定. */
import { useEffect } from 'react';
import TextField from '@mui/material/TextField';
import { MemberLevel, ZoneStatus } from '../../../domain/members';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';
import EnumSelect from '../../components/EnumSelect';
import { useMemberOptMutation } from '../../services/members';
import type { ZoneOption } from './MemberCreateDialog';
import type { MemberRow } from './memberTypes';

export type FieldAction = 'setLevel' | 'setZone';

export default function MemberFieldDialog({
  target,
  zones,
  onClose,
}: {
  target: { member: MemberRow; action: FieldAction } | null;
  zones: ZoneOption[];
  onClose: () => void;
}) {
  const [opt] = useMemberOptMutation();
  const isLevel = target?.action !== 'setZone';
  const form = useForm<{ value: string }>(
    { value: '' },
    { value: { label: isLevel ? '等级' : '专区', required: true } },
  );
  const { reset } = form;
  useEffect(() => {
    if (!target) return;
    const current = target.action === 'setLevel' ? target.member.level : target.member.zoneId;
    reset({ value: current === null || current === undefined ? '' : String(current) });
  }, [target, reset]);

  const submit = () => {
    const value = Number(form.values.value);
    const body =
      target!.action === 'setLevel'
        ? { id: target!.member.id, action: 'setLevel' as const, level: value as 0 | 1 | 2 | 3 | 4 | 5 }
        : { id: target!.member.id, action: 'setZone' as const, zoneId: value };
    return opt({ body }).unwrap();
  };

  return (
    <FormDialog
      open={target !== null}
      title={isLevel ? '修改等级' : '修改专区'}
      form={form}
      onClose={onClose}
      onSubmit={submit}
      successText="修改成功"
      maxWidth="xs"
    >
      {target ? <TextField value={`${target.member.uid}（${target.member.nickname}）`} label="会员" disabled /> : null}
      <EnumSelect
        options={
          isLevel
            ? MemberLevel
            : zones
                .filter((z) => z.status === ZoneStatus.is.enabled || z.id === target?.member.zoneId)
                .map((z) => ({ value: z.id, label: z.name, disabled: z.status !== 1 }))
        }
        {...form.field('value')}
      />
    </FormDialog>
  );
}
