/** A SKU row's image: a small thumbnail with 上传 / 移除, uploading through the oss ticket. */
import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { thumbOf } from '../../../domain/formats';
import { UPLOAD_ACCEPT } from '../../../domain/uploads';
import { uploadImage } from '../../services/uploads';
import { useAppDispatch } from '../../store/hooks';

export default function SkuImage({
  label,
  value,
  onChange,
  onBusy,
}: {
  label: string;
  value: string;
  onChange: (url: string) => void;
  onBusy?: (busy: boolean) => void;
}) {
  const dispatch = useAppDispatch();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    onBusy?.(true);
    try {
      onChange((await uploadImage(dispatch, file)).url);
    } catch (e) {
      setError(e instanceof Error ? e.message : '上传失败');
    } finally {
      setBusy(false);
      onBusy?.(false);
    }
  };
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      {value ? (
        <Box
          component="img"
          src={thumbOf(value)}
          alt={label}
          sx={{ width: 36, height: 36, objectFit: 'cover', borderRadius: 0.5 }}
        />
      ) : null}
      {busy ? <CircularProgress size={18} aria-label="上传中" /> : null}
      <Tooltip title={error ?? ''} open={!!error} arrow>
        <Button
          size="small"
          color={error ? 'error' : 'primary'}
          disabled={busy}
          onClick={() => input.current?.click()}
          aria-label={`上传${label}`}
        >
          {value ? '更换' : '上传'}
        </Button>
      </Tooltip>
      {value ? (
        <Button size="small" color="inherit" onClick={() => onChange('')} aria-label={`移除${label}`}>
          移除
        </Button>
      ) : null}
      <input
        ref={input}
        type="file"
        hidden
        accept={UPLOAD_ACCEPT}
        data-testid={`${label}-input`}
        onChange={(e) => {
          void send(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </Stack>
  );
}
