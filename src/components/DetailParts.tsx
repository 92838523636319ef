/** The parts of a detail drawer: a titled section, a label–value line, and an image that enlarges on click. */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Stack spacing={0.5}>{children}</Stack>
    </Box>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" sx={{ width: 96, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', minWidth: 0, wordBreak: 'break-all' }}>{children}</Box>
    </Stack>
  );
}

/** An image as a thumbnail (`thumb` when given); a click opens it large in a dialog. */
export function ImagePreview({
  src,
  label,
  thumb,
  size = 120,
}: {
  src: string;
  label: string;
  thumb?: string;
  size?: number;
}) {
  const [open, setOpen] = useState(false);
  if (!src) return <Typography variant="body2">-</Typography>;
  return (
    <>
      <ButtonBase aria-label={`查看${label}大图`} onClick={() => setOpen(true)} sx={{ borderRadius: 1 }}>
        <Box
          component="img"
          src={thumb ?? src}
          alt={label}
          sx={{ width: size, height: size, objectFit: 'cover', border: 1, borderColor: 'divider', borderRadius: 1 }}
        />
      </ButtonBase>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" aria-label={label}>
        <DialogTitle sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          {label}
          <IconButton aria-label="关闭大图" onClick={() => setOpen(false)}>
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent>
          <Box component="img" src={src} alt={`${label}大图`} sx={{ maxWidth: '100%', maxHeight: '75vh' }} />
        </DialogContent>
      </Dialog>
    </>
  );
}
