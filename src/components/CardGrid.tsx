/** A named list of cards laid out in as many columns of at least `min` px as fit (welcome, statistics). */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

export default function CardGrid({
  label,
  min,
  sx,
  children,
}: {
  /** The list's accessible name. */
  label: string;
  min: number;
  sx?: SxProps<Theme>;
  /** `<li>` items. */
  children: ReactNode;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={[
        {
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))`,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}
