/**
 * The waiting counts (提现待审核, 充值待确认…) by the menu path of their page: the sidebar's badges and
 * the welcome page's cards read the same query, which polls (services/stats.ts WAITING_POLL_MS) and
 * refetches when one of those lists changes here.
 */
import { useMemo } from 'react';
import { pagePaths } from '../../domain/pagePaths';
import { WaitingItems, type WaitingKey } from '../../domain/waiting';
import { useGetWelcomeQuery, WAITING_POLL_MS } from '../services/stats';

export const waitingPath = (key: WaitingKey) => `/layout/${pagePaths[WaitingItems[key].page]}`;

export function useWelcome() {
  return useGetWelcomeQuery(undefined, { pollingInterval: WAITING_POLL_MS, skipPollingIfUnfocused: true });
}

/** Menu path → the number waiting on that page (only pages with something waiting). */
export function useWaitingBadges(): ReadonlyMap<string, number> {
  const { data } = useWelcome();
  return useMemo(
    () => new Map((data?.waiting ?? []).filter((w) => w.count > 0).map((w) => [waitingPath(w.key), w.count])),
    [data],
  );
}
