/** Shows a member's new login password once, after a reset, with a copy button. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

export function NewPasswordDialog({
  shown,
  onClose,
}: {
  shown: { uid: string; password: string } | null;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  return (
    <Dialog open={shown !== null} onClose={onClose} aria-labelledby="new-password-title">
      <DialogTitle id="new-password-title">新密码</DialogTitle>
      <DialogContent>
        <Typography>会员 {shown?.uid} 的新登录密码（仅显示一次，请转告会员）：</Typography>
        <Typography variant="h6" sx={{ fontFamily: 'monospace', mt: 1 }} aria-label="新登录密码">
          {shown?.password}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(shown?.password ?? '');
            dispatch(toastShown('已复制', 'success'));
          }}
        >
          复制
        </Button>
        <Button variant="contained" onClick={onClose}>
          关闭
        </Button>
      </DialogActions>
    </Dialog>
  );
}
