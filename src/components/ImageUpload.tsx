/**
 * One image field: choose a file or drop it on the field, see the upload's progress, a preview of the
 * stored image (click to open it), remove it. The value is the image's URL (what the forms keep), so
 * a URL typed elsewhere shows here too. Refusals (type, size, a broken file) are shown under the field.
 */
import { useRef, useState, type DragEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { UPLOAD_ACCEPT } from '../../domain/uploads';
import { useAppDispatch } from '../store/hooks';
import { uploadImage } from '../services/uploads';

export interface ImageUploadProps {
  label: string;
  value: string;
  onChange: (url: string) => void;
  disabled?: boolean;
  /** Told when an upload starts and ends (a dialog keeps 确定 disabled meanwhile). */
  onBusy?: (busy: boolean) => void;
}

export default function ImageUpload({ label, value, onChange, disabled, onBusy }: ImageUploadProps) {
  const dispatch = useAppDispatch();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const busy = progress !== null;

  const send = async (file: File | undefined) => {
    if (!file || busy || disabled) return;
    setError(null);
    setProgress(0);
    onBusy?.(true);
    try {
      const r = await uploadImage(dispatch, file, setProgress);
      onChange(r.url);
    } catch (e) {
      setError(e instanceof Error ? e.message : '上传失败');
    } finally {
      setProgress(null);
      onBusy?.(false);
    }
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void send(e.dataTransfer.files[0]);
  };

  return (
    <Box
      data-testid="image-upload"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      sx={{
        border: 1,
        borderStyle: 'dashed',
        borderColor: over ? 'primary.main' : error ? 'error.main' : 'divider',
        borderRadius: 1,
        p: 1.5,
        display: 'flex',
        gap: 1.5,
        alignItems: 'center',
      }}
    >
      {value ? (
        <a href={value} target="_blank" rel="noreferrer">
          <Box
            component="img"
            src={value}
            alt={label}
            sx={{ width: 72, height: 72, objectFit: 'cover', borderRadius: 1, display: 'block' }}
          />
        </a>
      ) : null}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, mt: 0.5 }}>
          <Button size="small" variant="outlined" disabled={busy || disabled} onClick={() => input.current?.click()}>
            {value ? '更换图片' : '选择图片'}
          </Button>
          {value ? (
            <Button size="small" color="error" disabled={busy || disabled} onClick={() => onChange('')}>
              移除
            </Button>
          ) : null}
        </Box>
        {busy ? <LinearProgress variant="determinate" value={progress} sx={{ mt: 1 }} aria-label="上传进度" /> : null}
        <FormHelperText error={!!error}>{error ?? '支持 PNG、JPEG、GIF、WebP，可拖入此处'}</FormHelperText>
      </Box>
      <input
        ref={input}
        type="file"
        hidden
        accept={UPLOAD_ACCEPT}
        aria-label={`上传${label}`}
        onChange={(e) => {
          void send(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </Box>
  );
}
