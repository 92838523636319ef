/** The sidebar's waiting-count badge (提现待审核…) beside a page, and the sum on a folded group. */
import Box from '@mui/material/Box';
import type { MenuEntry } from '../services/generated/auth';
import { isLeaf } from './menuTree';

/** What waits in a group's pages (shown on the group while it is folded). */
export function waitingIn(entry: MenuEntry, badges: ReadonlyMap<string, number>): number {
  return entry.sub.reduce((n, e) => n + (isLeaf(e) ? (badges.get(e.layout) ?? 0) : waitingIn(e, badges)), 0);
}

/**
 * The number waiting on a page (提现待审核…), beside its menu entry; `corner` puts it over the top right
 * of a collapsed sidebar's icon (the button must be `position: relative`).
 */
export function WaitingBadge({ count, corner }: { count: number | undefined; corner?: boolean }) {
  if (!count) return null;
  const place = corner
    ? { position: 'absolute' as const, top: 2, right: 2, px: 0.5, minWidth: 16, fontSize: 10, lineHeight: '16px' }
    : { ml: 0.5, px: 0.75, minWidth: 20, fontSize: 12, lineHeight: '20px' };
  return (
    <Box
      component="span"
      aria-label={`待处理 ${count}`}
      sx={{ ...place, borderRadius: 10, bgcolor: 'error.main', color: '#fff', textAlign: 'center' }}
    >
      {count > 99 ? '99+' : count}
    </Box>
  );
}
