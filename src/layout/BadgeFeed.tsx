/**
 * Feeds the sidebar its waiting-count badges and keeps the console live (./liveFeed). A chunk of its
 * own, loaded after the shell has drawn: neither is needed for the first paint, and the query (with
 * its endpoint definitions) stays out of every page's first download.
 */
import { useEffect } from 'react';
import { useLiveFeed } from './liveFeed';
import { useWaitingBadges } from './waitingCounts';

/** The header's 提醒设置 button, in this chunk too (one chunk for what the shell loads after its first paint). */
export { default as LiveAlerts } from './LiveAlerts';
/** 个人中心, opened from the account menu. */
export { default as ProfileDialog } from './ProfileDialog';

export default function BadgeFeed({ onBadges }: { onBadges: (badges: ReadonlyMap<string, number>) => void }) {
  useLiveFeed();
  const badges = useWaitingBadges();
  useEffect(() => onBadges(badges), [badges, onBadges]);
  return null;
}
