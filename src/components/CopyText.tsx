/**
 * A long value (address, transaction hash, account) in a narrow cell: its two ends with an ellipsis in the
 * middle, the whole value on hover, and a button that copies it exactly (to paste into a block explorer).
 */
import IconButton from '@mui/material/IconButton';
import Box from '@mui/material/Box';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useAppDispatch } from '../store/hooks';
import { toastShown } from '../store/toastSlice';

/** "TXyz12ab…9f3c21": the first 8 and last 6 characters of a value longer than 16. */
export const middleEllipsis = (text: string) => (text.length > 16 ? `${text.slice(0, 8)}…${text.slice(-6)}` : text);

export interface CopyTextProps {
  value: string | null | undefined;
  /** What is copied, for the button's name: "复制地址". */
  label: string;
  /** Show the whole value (in a drawer) instead of its two ends. */
  full?: boolean;
}

export function CopyText({ value, label, full = false }: CopyTextProps) {
  const dispatch = useAppDispatch();
  if (!value) return <span>-</span>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      dispatch(toastShown(`已复制${label}`, 'success'));
    } catch {
      dispatch(toastShown('复制失败，请手动选择复制', 'error'));
    }
  };
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25, maxWidth: '100%' }}>
      <Box
        component="span"
        title={value}
        sx={{ fontFamily: 'monospace', ...(full ? { wordBreak: 'break-all' } : { whiteSpace: 'nowrap' }) }}
      >
        {full ? value : middleEllipsis(value)}
      </Box>
      <IconButton size="small" aria-label={`复制${label}`} title={`复制${label}`} onClick={copy} sx={{ p: 0.25 }}>
        <ContentCopyIcon sx={{ fontSize: 14 }} />
      </IconButton>
    </Box>
  );
}

export default CopyText;
