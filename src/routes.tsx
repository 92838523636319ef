/**
 * The registry of pages shown inside the shell (children of /layout, SPEC.md §2).
 *
 * To add a page, append ONE entry to `pageRoutes`:
 *
 *   { path: 'systemLayout/managerLayout', load: () => import('./pages/managers/ManagersPage') },
 *
 * - `path` is relative to /layout and equals the menu entry's `layout` without the '/layout/' prefix
 *   (domain/permissions.ts), which also makes it the breadcrumb key.
 * - `load` must be a dynamic `import()` of a module whose default export is the page component:
 *   webpack turns every such import into its own chunk, loaded only when the route is visited.
 * - Never import a page statically here or anywhere in the shell; that would pull it into the
 *   entry bundle (and the login route).
 * - Optional `props` are passed to the page (two routes can share one screen, e.g. the protocol
 *   editor with id 6 and 8).
 *
 * Matching is case-insensitive, like the rest of the router.
 */
import type { ComponentType } from 'react';

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

export const pageRoutes: PageRoute[] = [
  { path: 'welcome', load: () => import('./pages/welcome/WelcomePage') },
  { path: 'errors/404', load: () => import('./pages/errors/NotFoundPage') },
  { path: 'systemLayout/managerLayout', load: () => import('./pages/system/ManagersPage') },
  { path: 'systemLayout/roleLayout', load: () => import('./pages/system/RolesPage') },
  { path: 'systemLayout/passwordLayout', load: () => import('./pages/system/PasswordPage') },
  {
    path: 'withdrawLayout/withdrawListLayout',
    load: () => import('./pages/withdrawals/WithdrawListPage'),
    props: { type: 1 },
  },
  {
    path: 'withdrawLayout/extractListLayout',
    load: () => import('./pages/withdrawals/WithdrawListPage'),
    props: { type: 2 },
  },
  { path: 'withdrawLayout/withdrawSettingLayout', load: () => import('./pages/withdrawals/WithdrawSettingPage') },
  { path: 'depositLayout/depositListLayout', load: () => import('./pages/deposits/DepositListPage') },
  { path: 'depositLayout/depositSettingLayout', load: () => import('./pages/deposits/DepositSettingPage') },
  { path: 'depositLayout/accountLayout', load: () => import('./pages/deposits/DepositAccountsPage') },
  { path: 'memberLayout/memberListLayout', load: () => import('./pages/members/MemberListPage') },
  { path: 'memberLayout/zoneLayout', load: () => import('./pages/members/ZonesPage') },
  { path: 'memberLayout/queryListLayout', load: () => import('./pages/members/AssetQueryPage') },
  { path: 'memberLayout/paymentListLayout', load: () => import('./pages/payments/PaymentListPage') },
  { path: 'transferLayout', load: () => import('./pages/transfers/TransferListPage') },
  { path: 'billLayout', load: () => import('./pages/bills/BillListPage') },
  { path: 'energyLayout/changeLayout', load: () => import('./pages/bills/BillListPage'), props: { energy: true } },
];
