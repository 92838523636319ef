/** What an action of the permission tree grants, beyond the page it sits on (kept apart: the console's role page needs only this). */

/**
 * Actions that move money or change a money rule (资金), and those that change who may act (授权): the
 * bind dialog marks them, so that granting one is a decision, not a side effect.
 */
export const MONEY_ACTIONS: ReadonlySet<string> = new Set([
  'member:adjust',
  'withdraw:audit',
  'withdraw:pay',
  'extract:audit',
  'extract:pay',
  'withdrawSetting:update',
  'deposit:audit',
  'depositAccount:opt',
  'match:opt',
  'order:opt',
  'pledgeMode:update',
  'setting:update',
]);
/** Pages whose own code changes a money rule (充值设置 saves with its page code): granted like an action. */
export const MONEY_PAGES: ReadonlySet<string> = new Set(['depositSetting:update']);
export const ACCESS_ACTIONS: ReadonlySet<string> = new Set([
  'manager:create',
  'manager:delete',
  'role:create',
  'role:bind',
]);
