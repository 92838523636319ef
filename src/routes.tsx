/**
 * The registry of pages shown inside the shell (children of /layout, SPEC.md §2).
 *
 * A page is registered by its permission code; its path is written once, in domain/pagePaths.ts,
 * which the permission tree (the menu's `layout`, the breadcrumb key) reads too. To add a page, add
 * its path there and ONE entry to `pagesByCode`:
 *
 *   'manager:view': { load: () => import('./pages/system/ManagersPage') },
 *
 * - `load` must be a dynamic `import()` of a module whose default export is the page component:
 *   webpack turns every such import into its own chunk, loaded only when the route is visited.
 * - Never import a page statically here or anywhere in the shell; that would pull it into the
 *   entry bundle (and the login route).
 * - Optional `props` are passed to the page (two routes can share one screen, e.g. 提现 and 提取).
 *
 * Matching is case-insensitive, like the rest of the router.
 */
import type { ComponentType } from 'react';
import { pagePaths, type PageCode } from '../domain/pagePaths';

export interface PageModule {
  default: ComponentType<any>;
}

export interface PageRoute {
  /** Path below /layout, e.g. 'systemLayout/managerLayout'. */
  path: string;
  /** Dynamic import of the page module (default export = the page component). */
  load: () => Promise<PageModule>;
  /** Props handed to the page component. */
  props?: Record<string, unknown>;
}

type PageEntry = Omit<PageRoute, 'path'>;

/** Every page with a permission code, by that code (the path comes from domain/pagePaths.ts). */
const pagesByCode: Record<PageCode, PageEntry> = {
  'manager:view': { load: () => import('./pages/system/ManagersPage') },
  'role:view': { load: () => import('./pages/system/RolesPage') },
  'password:update': { load: () => import('./pages/system/PasswordPage') },
  'withdraw:view': { load: () => import('./pages/withdrawals/WithdrawListPage'), props: { type: 1 } },
  'extract:view': { load: () => import('./pages/withdrawals/WithdrawListPage'), props: { type: 2 } },
  'withdrawSetting:view': { load: () => import('./pages/withdrawals/WithdrawSettingPage') },
  'deposit:view': { load: () => import('./pages/deposits/DepositListPage') },
  'depositSetting:update': { load: () => import('./pages/deposits/DepositSettingPage') },
  'depositAccount:view': { load: () => import('./pages/deposits/DepositAccountsPage') },
  'member:view': { load: () => import('./pages/members/MemberListPage') },
  'zone:view': { load: () => import('./pages/members/ZonesPage') },
  'query:view': { load: () => import('./pages/members/AssetQueryPage') },
  'payment:view': { load: () => import('./pages/payments/PaymentListPage') },
  'transfer:view': { load: () => import('./pages/transfers/TransferListPage') },
  'bill:view': { load: () => import('./pages/bills/BillListPage') },
  'change:view': { load: () => import('./pages/bills/BillListPage'), props: { energy: true } },
  'pledge:view': { load: () => import('./pages/pledge/PledgeListPage') },
  'pledgeMode:view': { load: () => import('./pages/pledge/PledgeModePage') },
  'seed:view': { load: () => import('./pages/seeds/SeedListPage') },
  'product:view': { load: () => import('./pages/mall/ProductListPage') },
  'order:view': { load: () => import('./pages/mall/OrderListPage') },
  'match:view': { load: () => import('./pages/matches/MatchListPage') },
  'stat:view': { load: () => import('./pages/stats/StatPage') },
  'notice:view': { load: () => import('./pages/content/NoticeListPage') },
  'intro:view': { load: () => import('./pages/content/ProtocolPage'), props: { id: 6 } },
  'play:view': { load: () => import('./pages/content/ProtocolPage'), props: { id: 8 } },
  'setting:view': { load: () => import('./pages/settings/SettingsPage') },
};

export const pageRoutes: PageRoute[] = [
  // The pages every manager sees, without a permission code.
  { path: 'welcome', load: () => import('./pages/welcome/WelcomePage') },
  { path: 'errors/404', load: () => import('./pages/errors/NotFoundPage') },
  ...(Object.keys(pagesByCode) as PageCode[]).map((code) => ({ path: pagePaths[code], ...pagesByCode[code] })),
];
