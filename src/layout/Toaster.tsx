/** Shows the toast queue one message at a time (errors of every call arrive here, see store/index.ts). */
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { toastClosed } from '../store/toastSlice';
import { useAppDispatch, useAppSelector } from '../store/hooks';

export const TOAST_MS = 3000;

export default function Toaster() {
  const toast = useAppSelector((s) => s.toast.items[0]);
  const dispatch = useAppDispatch();
  if (!toast) return null;
  const close = () => dispatch(toastClosed(toast.id));
  return (
    <Snackbar
      key={toast.id}
      open
      autoHideDuration={TOAST_MS}
      onClose={(_e, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert severity={toast.severity} variant="filled" onClose={close} sx={{ minWidth: 240 }}>
        {toast.msg}
      </Alert>
    </Snackbar>
  );
}
