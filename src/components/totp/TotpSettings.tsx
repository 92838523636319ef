/**
 * 个人中心's 身份验证器 line (issue 15): whether one is bound (and how many recovery codes are left),
 * with 绑定 (BindTotp in a dialog) or 解绑 (a current code or a recovery code).
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useDisableTotpMutation, useGetTotpStatusQuery } from '../../services/totp';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import BindTotp from './BindTotp';
import ProofDialog from './ProofDialog';

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
        // No closing by the backdrop or Escape: the recovery codes are shown once.
        <Dialog open fullWidth maxWidth="sm" aria-labelledby="bind-totp-title">
          <DialogTitle id="bind-totp-title">绑定身份验证器</DialogTitle>
          <DialogContent>
            <BindTotp onDone={() => setOpen(null)} onCancel={() => setOpen(null)} />
          </DialogContent>
        </Dialog>
      )}
      {open === 'unbind' && <UnbindDialog onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function UnbindDialog({ onClose }: { onClose: () => void }) {
  const [disable] = useDisableTotpMutation();
  const dispatch = useAppDispatch();
  return (
    <ProofDialog
      id="unbind-totp"
      title="解绑身份验证器"
      text="解绑后登录只需密码，资金操作也不再要求验证码。请输入验证码或恢复码确认。"
      submitText="确认解绑"
      danger
      send={(body) => disable({ body }).unwrap()}
      onDone={() => {
        dispatch(toastShown('已解绑身份验证器', 'success'));
        onClose();
      }}
      onCancel={onClose}
    />
  );
}
