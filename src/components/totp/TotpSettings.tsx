/**
 * 个人中心's 身份验证器 line (issue 15): whether one is bound (and how many recovery codes are left),
 * with 绑定 (BindTotp in a dialog) or 解绑 (a current code or a recovery code).
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApiError } from '../../services/baseApi';
import { useDisableTotpMutation, useGetTotpStatusQuery } from '../../services/totp';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import BindTotp from './BindTotp';
import ProofField, { emptyProof, proofOf } from './ProofField';

export default function TotpSettings() {
  const { data } = useGetTotpStatusQuery();
  const [open, setOpen] = useState<'bind' | 'unbind' | null>(null);
  if (!data) return <Typography color="text.secondary">-</Typography>;
  const text = data.bound
    ? `已绑定（剩余恢复码 ${data.recoveryLeft} 个）`
    : data.available
      ? data.required
        ? '未绑定（所属角色要求绑定）'
        : '未绑定'
      : '未绑定（服务器未启用）';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2">{text}</Typography>
      {data.bound ? (
        <Button size="small" color="error" onClick={() => setOpen('unbind')}>
          解绑
        </Button>
      ) : data.available ? (
        <Button size="small" onClick={() => setOpen('bind')}>
          绑定身份验证器
        </Button>
      ) : null}
      {open === 'bind' && (
        <Dialog open fullWidth maxWidth="sm" onClose={() => setOpen(null)} aria-labelledby="bind-totp-title">
          <DialogTitle id="bind-totp-title">绑定身份验证器</DialogTitle>
          <DialogContent>
            <BindTotp onDone={() => setOpen(null)} />
          </DialogContent>
        </Dialog>
      )}
      {open === 'unbind' && <UnbindDialog onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function UnbindDialog({ onClose }: { onClose: () => void }) {
  const [proof, setProof] = useState(emptyProof);
  const [error, setError] = useState<string>();
  const [disable, { isLoading }] = useDisableTotpMutation();
  const dispatch = useAppDispatch();
  const submit = async () => {
    const p = proofOf(proof);
    if ('error' in p) return setError(p.error);
    try {
      await disable({ body: p.body }).unwrap();
      dispatch(toastShown('已解绑身份验证器', 'success'));
      onClose();
    } catch (err) {
      setError((err as ApiError).msg);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="unbind-totp-title">
      <DialogTitle id="unbind-totp-title">解绑身份验证器</DialogTitle>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogContent>
          <DialogContentText>
            解绑后登录只需密码，资金操作也不再要求验证码。请输入验证码或恢复码确认。
          </DialogContentText>
          <ProofField value={proof} onChange={setProof} error={error} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>取消</Button>
          <Button type="submit" color="error" variant="contained" disabled={isLoading}>
            确认解绑
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
