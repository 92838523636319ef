/** The outline of a page (a filter bar, a table) while its code loads, instead of an empty main area. */
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';

export default function PageSkeleton() {
  return (
    <Stack spacing={2} role="status" aria-busy="true" aria-label="页面加载中" data-testid="page-skeleton">
      <Paper variant="outlined" sx={{ p: 2, display: 'flex', gap: 2 }}>
        <Skeleton variant="rounded" width={180} height={40} />
        <Skeleton variant="rounded" width={180} height={40} />
        <Skeleton variant="rounded" width={88} height={40} />
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} variant="text" height={36} />
        ))}
      </Paper>
    </Stack>
  );
}
