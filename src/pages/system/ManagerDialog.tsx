/**
 * Create or edit a manager (`user/create`, with `id` and the row's `version` when editing).
 * The password is required on create; on edit a blank password keeps the current one. A save based
 * on a stale row answers 409, which the dialog shows and the toast repeats.
 */
import { useEffect } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  isValidUsername,
  ManagerStatus,
  PASSWORD_RULE_TEXT,
  passwordProblem,
  USERNAME_RULE_TEXT,
} from '../../../domain/managers';
import FormDialog from '../../components/FormDialog';
import useForm from '../../components/useForm';
import type { ListManagersApiResponse } from '../../services/generated/system';
import { useSaveManagerMutation } from '../../services/system';

export type ManagerRow = ListManagersApiResponse['list'][number];
export type RoleOption = ListManagersApiResponse['roles'][number];

type Values = { username: string; password: string; roleId: string; status: string };

const EMPTY: Values = { username: '', password: '', roleId: '', status: '1' };

export interface ManagerDialogProps {
  open: boolean;
  /** The row being edited; null creates a manager. */
  manager: ManagerRow | null;
  roles: RoleOption[];
  onClose: () => void;
}

export default function ManagerDialog({ open, manager, roles, onClose }: ManagerDialogProps) {
  const editing = manager !== null;
  const [save] = useSaveManagerMutation();
  const form = useForm<Values>(EMPTY, {
    username: {
      label: '用户名',
      required: true,
      validate: (v) => (isValidUsername(v.trim()) ? null : USERNAME_RULE_TEXT),
    },
    password: {
      label: '密码',
      required: !editing,
      // The server's rules and wording; its common-password list stays on the server (a 400 toast).
      validate: (v, all) => passwordProblem(v, { field: '密码', username: all.username }),
    },
    roleId: { label: '角色', required: true },
    status: { label: '状态', required: true },
  });

  const { reset } = form;
  useEffect(() => {
    if (!open) return;
    reset(
      manager
        ? { username: manager.username, password: '', roleId: String(manager.roleId), status: String(manager.status) }
        : EMPTY,
    );
  }, [open, manager, reset]);

  const submit = () => {
    const { username, password, roleId, status } = form.values;
    return save({
      body: {
        ...(manager ? { id: manager.id, version: manager.version } : {}),
        username: username.trim(),
        ...(password ? { password } : {}),
        roleId: Number(roleId),
        status: Number(status) as 0 | 1,
      },
    }).unwrap();
  };

  return (
    <FormDialog
      open={open}
      title={editing ? '编辑管理员' : '新增管理员'}
      form={form}
      onClose={onClose}
      onSubmit={submit}
      successText={editing ? '保存成功' : '新增成功'}
    >
      <TextField {...form.field('username')} autoComplete="off" slotProps={{ htmlInput: { maxLength: 20 } }} />
      <TextField
        {...form.field('password')}
        type="password"
        autoComplete="new-password"
        placeholder={editing ? '留空则不修改密码' : undefined}
        helperText={form.errors.password ?? PASSWORD_RULE_TEXT}
        slotProps={{ htmlInput: { maxLength: 128 } }}
      />
      <TextField {...form.field('roleId')} select>
        {roles.map((r) => (
          <MenuItem key={r.id} value={String(r.id)}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...form.field('status')} select>
        {[...ManagerStatus.values].reverse().map((v) => (
          <MenuItem key={v} value={String(v)}>
            {ManagerStatus.label(v)}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
