/**
 * The welcome page's waiting counts and the sidebar's badges: which page each count belongs to (a
 * manager sees the counts of the pages they may open; the card links to the list already filtered).
 */
import type { Asset } from './assets';
import type { PageCode } from './pagePaths';

/** The welcome page's waiting counts: the page each opens, and the list filter it opens with. */
export const WaitingItems = {
  withdraw: { title: '提现待审核', page: 'withdraw:view', query: 'status=0' },
  extract: { title: '提取待审核', page: 'extract:view', query: 'status=0' },
  deposit: { title: '充值待确认', page: 'deposit:view', query: 'status=0' },
  appeal: { title: '申诉中', page: 'match:view', query: 'status=5' },
  ship: { title: '待发货', page: 'order:view', query: 'status=1' },
} as const satisfies Record<string, { title: string; page: PageCode; query: string }>;
export type WaitingKey = keyof typeof WaitingItems;

/** One waiting count with the sum it holds (withdrawals and deposits carry an amount). */
export interface WaitingCount {
  key: WaitingKey;
  count: number;
  amount: string | null;
  asset: Asset | null;
}
