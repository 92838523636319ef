/**
 * 系统管理 / 修改密码 (DOMAIN.md §3 System): old, new and confirm. The call is `GET user/password`
 * with the two passwords as params (SPEC.md §7; the server keeps that query string out of its logs).
 * Success ends every session of the manager, this one included: the page says so, forgets the token
 * and goes to login.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PASSWORD_RULE_TEXT, passwordProblem } from '../../../domain/managers';
import useForm from '../../components/useForm';
import { expectSessionEnd } from '../../services/http';
import { useChangePasswordMutation } from '../../services/system';
import { loggedOut } from '../../store/authSlice';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

export const PASSWORD_CHANGED = '密码修改成功，请重新登录';
/** Time to read the success toast before the login page replaces the shell. */
export const LOGIN_DELAY_MS = 1500;

type Values = { oldPassword: string; newPassword: string; confirmPassword: string };
const EMPTY: Values = { oldPassword: '', newPassword: '', confirmPassword: '' };

export default function PasswordPage() {
  const dispatch = useAppDispatch();
  const username = useAppSelector((s) => s.auth.username) ?? undefined;
  const navigate = useNavigate();
  const [change] = useChangePasswordMutation();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const form = useForm<Values>(EMPTY, {
    oldPassword: { label: '原密码', required: true },
    newPassword: {
      label: '新密码',
      required: true,
      // The server's rules and wording; its common-password list stays on the server (a 400 toast).
      validate: (v, all) =>
        v === all.oldPassword ? '新密码不能与原密码相同' : passwordProblem(v, { field: '新密码', username }),
    },
    confirmPassword: {
      label: '确认密码',
      required: true,
      validate: (v, all) => (v === all.newPassword ? null : '两次输入的新密码不一致'),
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || done || !form.validate()) return;
    setBusy(true);
    try {
      await change({ oldPassword: form.values.oldPassword, newPassword: form.values.newPassword }).unwrap();
    } catch {
      // The server's refusal (原密码错误 …) is a toast from the store listener.
      setBusy(false);
      return;
    }
    setBusy(false);
    setDone(true);
    // The server has ended this session too: a 302 to another request meanwhile is this logout's.
    expectSessionEnd(LOGIN_DELAY_MS + 1000);
    dispatch(toastShown(PASSWORD_CHANGED, 'success'));
    // Every session has ended on the server: forget the token and log in again.
    timer.current = setTimeout(() => {
      dispatch(loggedOut());
      navigate('/login', { replace: true });
    }, LOGIN_DELAY_MS);
  };

  return (
    <Paper sx={{ p: 3, maxWidth: 480 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        修改密码
      </Typography>
      <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-label="修改密码">
        <TextField {...form.field('oldPassword')} type="password" autoComplete="current-password" />
        <TextField
          {...form.field('newPassword')}
          type="password"
          autoComplete="new-password"
          helperText={form.errors.newPassword ?? PASSWORD_RULE_TEXT}
        />
        <TextField {...form.field('confirmPassword')} type="password" autoComplete="new-password" />
        {done ? (
          <Typography color="success.main" role="status">
            {PASSWORD_CHANGED}
          </Typography>
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || done}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            确定
          </Button>
          <Button type="button" disabled={busy || done} onClick={() => form.reset(EMPTY)}>
            重置
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
