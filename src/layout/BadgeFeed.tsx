/**
 * Feeds the sidebar its waiting-count badges. A chunk of its own, loaded after the shell has drawn:
 * the badges are not needed for the first paint, and the query (with its endpoint definitions) stays
 * out of every page's first download.
 */
import { useEffect } from 'react';
import { useWaitingBadges } from './waitingCounts';

export default function BadgeFeed({ onBadges }: { onBadges: (badges: ReadonlyMap<string, number>) => void }) {
  const badges = useWaitingBadges();
  useEffect(() => onBadges(badges), [badges, onBadges]);
  return null;
}
