/** Create or edit a role (`role/create`, with `id` when editing): name (unique) and remark. */
import { useEffect } from 'react';
import TextField from '@mui/material/TextField';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';
import type { ListRolesApiResponse } from '../../services/generated/system';
import { useSaveRoleMutation } from '../../services/system';

export type RoleRow = ListRolesApiResponse['list'][number];

type Values = { name: string; remark: string };
const EMPTY: Values = { name: '', remark: '' };

export interface RoleDialogProps {
  open: boolean;
  role: RoleRow | null;
  onClose: () => void;
}

export default function RoleDialog({ open, role, onClose }: RoleDialogProps) {
  const [save] = useSaveRoleMutation();
  const form = useForm<Values>(EMPTY, {
    name: {
      label: '角色名称',
      required: true,
      validate: (v) => (v.trim().length > 50 ? '角色名称不能超过50个字符' : null),
    },
    remark: { label: '备注', validate: (v) => (v.length > 200 ? '备注不能超过200个字符' : null) },
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset(role ? { name: role.name, remark: role.remark } : EMPTY);
  }, [open, role, reset]);

  return (
    <FormDialog
      open={open}
      title={role ? '编辑角色' : '新增角色'}
      form={form}
      onClose={onClose}
      onSubmit={() =>
        save({
          body: { ...(role ? { id: role.id } : {}), name: form.values.name.trim(), remark: form.values.remark.trim() },
        }).unwrap()
      }
      successText={role ? '保存成功' : '新增成功'}
    >
      <TextField {...form.field('name')} autoComplete="off" slotProps={{ htmlInput: { maxLength: 50 } }} />
      <TextField {...form.field('remark')} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 200 } }} />
    </FormDialog>
  );
}
