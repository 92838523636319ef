/** What the operation log calls each of its rows' codes: every page and action, then the server's events. */
import { allPermissions } from './permissions';
import { TotpLogCodes } from './totp';

/**
 * Operation-log rows that are not a manager's action under a permission but an event the server
 * records about an account (issue 10: the per-account login limit). Their codes share the log's
 * `permission_code` column, so each needs a title of its own for the 操作 column and filter.
 */
export const opLogEvents = [
  { code: 'login:throttle', title: '登录限速' },
  { code: TotpLogCodes.bind, title: '绑定身份验证器' },
  { code: TotpLogCodes.unbind, title: '解绑身份验证器' },
  { code: TotpLogCodes.reset, title: '重置身份验证器' },
  { code: TotpLogCodes.stepUpFailed, title: '二次验证失败' },
  { code: TotpLogCodes.codeFailed, title: '验证码错误' },
  { code: TotpLogCodes.throttle, title: '验证码限速' },
] as const;

/** What an op-log row is about: every page and action of the tree, then the server's events. */
export const opLogActions: ReadonlyArray<{ code: string; title: string }> = [
  ...allPermissions.filter((p) => p.kind !== 'group'),
  ...opLogEvents,
];
const opLogTitles = new Map(opLogActions.map((a) => [a.code, a.title]));

/** The Chinese title of an op-log row's code (the raw code only if it is unknown). */
export function opLogCodeTitle(code: string): string {
  return opLogTitles.get(code) ?? code;
}
