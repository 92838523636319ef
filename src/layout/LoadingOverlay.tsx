/** The global overlay "加载中..." shown while a request flagged as loading is pending (SPEC.md §1). */
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../store/hooks';

export const LOADING_TEXT = '加载中...';

export default function LoadingOverlay() {
  const pending = useAppSelector((s) => s.loading.count > 0);
  if (!pending) return null;
  return (
    <Backdrop
      open
      transitionDuration={0}
      role="progressbar"
      aria-label={LOADING_TEXT}
      sx={{ zIndex: (t) => t.zIndex.modal + 10, color: '#fff', flexDirection: 'column', gap: 1.5 }}
    >
      <CircularProgress color="inherit" size={36} />
      <Typography>{LOADING_TEXT}</Typography>
    </Backdrop>
  );
}
