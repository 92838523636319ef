/**
 * A detail panel from the right edge: a titled region with a 关闭 button, full width on a phone. The
 * member, pledge-release, seed-release and match details all open in one.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';

export interface SideDrawerProps {
  open: boolean;
  onClose: () => void;
  /** The heading. */
  title: ReactNode;
  /** The region's accessible name (what a screen reader and the tests find it by). */
  label: string;
  /** Width from the sm breakpoint up, px. */
  width?: number;
  children: ReactNode;
}

export default function SideDrawer({ open, onClose, title, label, width = 520, children }: SideDrawerProps) {
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Box sx={{ width: { xs: '100vw', sm: width }, p: 2 }} role="region" aria-label={label}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
          <Typography variant="h6">{title}</Typography>
          <IconButton aria-label="关闭" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Stack>
        {children}
      </Box>
    </Drawer>
  );
}
