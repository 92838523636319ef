/**
 * The second factor (issue 15): authenticator codes (RFC 6238 TOTP) at login and again before money
 * moves. Shared by the server (what it checks) and the console (what it shows).
 */
import { WithdrawActionCodes } from './withdrawals';

/** The name an authenticator app shows beside the account. */
export const TOTP_ISSUER = '后台管理控制台';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

/** Six digits; spaces a person types between them are dropped first. */
export const TOTP_CODE_PATTERN = '^\\d{6}$';
/** A recovery code as shown (XXXXX-XXXXX, letters and digits); case, spaces and dashes do not matter. */
export const RECOVERY_CODE_PATTERN = '^[A-Za-z0-9 -]{10,16}$';

/**
 * The permissions of actions that move money or change who may move it. Every POST route that names
 * one of them must declare `config.stepUp` (the server refuses to start otherwise, and a test walks
 * the routes): a manager with an authenticator gives a fresh code before such an action.
 */
export const STEP_UP_CODES: ReadonlySet<string> = new Set([
  ...WithdrawActionCodes, // 提现/提取 审核 (approve, reject) and 打款, one by one and in batches
  'deposit:audit', // 充值 确认/驳回
  'member:adjust', // 余额调整
  'match:opt', // 撮合 仲裁
  'order:opt', // 订单 发货/完成/取消（退款）
  'role:bind', // 角色授权
  'role:create', // 新增/编辑角色, which switches 要求绑定身份验证器
  'payment:opt', // 收款方式审核: where members' money is sent
  'manager:create', // 新增/编辑管理员, and resetting an authenticator
  'withdrawSetting:update', // 提现设置 and the payout wallet
  'depositSetting:update', // 充值设置
  'depositAccount:opt', // 收款地址
]);

/** The answers of 426 and 428 (kept here, not in codes.ts: the login route downloads that one). */
export const TotpMessages = {
  bindRequired: '所属角色要求绑定身份验证器，请先完成绑定',
  stepUp: '该操作需要验证身份，请输入身份验证器中的6位验证码',
  stepUpCancelled: '已取消身份验证，操作未执行',
} as const;

/** Op-log codes of the second factor's events (not permissions: nobody grants them). */
export const TotpLogCodes = {
  bind: 'totp:bind',
  unbind: 'totp:unbind',
  reset: 'totp:reset',
  stepUpFailed: 'totp:stepup-fail',
  /** A wrong code at login or unbinding. */
  codeFailed: 'totp:fail',
  throttle: 'totp:throttle',
} as const;
