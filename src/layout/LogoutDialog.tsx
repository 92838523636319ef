/** The logout confirmation of SPEC.md §2: title 温馨提示, a warning icon, 确认退出系统？ */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import WarningAmber from '@mui/icons-material/WarningAmber';

export const LOGOUT_TITLE = '温馨提示';
export const LOGOUT_QUESTION = '确认退出系统？';

export default function LogoutDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="logout-title" aria-describedby="logout-question">
      <DialogTitle id="logout-title">{LOGOUT_TITLE}</DialogTitle>
      <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 280 }}>
        <WarningAmber color="warning" />
        <DialogContentText id="logout-question">{LOGOUT_QUESTION}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>取消</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          确定
        </Button>
      </DialogActions>
    </Dialog>
  );
}
