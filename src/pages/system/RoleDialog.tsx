/**
 * Create or edit a role (`role/create`, with `id` when editing): name (unique), remark and whether its
 * managers must bind an authenticator. `requireTotp` is sent only when it differs from where the
 * dialog started (off for a new role, the row's value for an edit): left out, the server keeps it.
 */
import { useEffect, useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';
import type { ListRolesApiResponse } from '../../services/generated/system';
import { useSaveRoleMutation } from '../../services/system';
import { useGetTotpStatusQuery } from '../../services/totp';

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
  const { data: totpStatus } = useGetTotpStatusQuery();
  const startTotp = role?.requireTotp ?? false;
  const [requireTotp, setRequireTotp] = useState(startTotp);
  useEffect(() => {
    if (!open) return;
    reset(role ? { name: role.name, remark: role.remark } : EMPTY);
    setRequireTotp(startTotp);
  }, [open, role, reset, startTotp]);

  return (
    <FormDialog
      open={open}
      title={role ? '编辑角色' : '新增角色'}
      form={form}
      onClose={onClose}
      onSubmit={() =>
        save({
          body: {
            ...(role ? { id: role.id } : {}),
            name: form.values.name.trim(),
            remark: form.values.remark.trim(),
            ...(requireTotp !== startTotp ? { requireTotp } : {}),
          },
        }).unwrap()
      }
      successText={role ? '保存成功' : '新增成功'}
    >
      <TextField {...form.field('name')} autoComplete="off" slotProps={{ htmlInput: { maxLength: 50 } }} />
      <TextField {...form.field('remark')} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 200 } }} />
      <FormControlLabel
        control={
          <Checkbox
            checked={requireTotp}
            // Without TOTP_KEY nobody can bind (the server refuses the switch): it can only be turned off.
            disabled={totpStatus?.available === false && !requireTotp}
            onChange={(e) => setRequireTotp(e.target.checked)}
          />
        }
        label={totpStatus?.available === false ? '要求绑定身份验证器（服务器未配置 TOTP_KEY）' : '要求绑定身份验证器'}
      />
    </FormDialog>
  );
}
