/** Response codes of the API envelope (DOMAIN.md §1) and the messages the client shows for them. */
export const Code = {
  ok: 200,
  notLoggedIn: 301,
  sessionEnded: 302,
  badInput: 400,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  /** The role asks for an authenticator and this manager has none yet: bind one first (issue 15). */
  totpBindRequired: 426,
  /** A money action wants a fresh authenticator code: the console asks for one and sends it again. */
  stepUp: 428,
  tooMany: 429,
  internal: 500,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** What the console itself says (SPEC.md's messages): all the client imports, so the login route stays light. */
export const ClientMessages = {
  busy: '系统繁忙，请稍后再试',
  timeout: '请求超时，请稍后重试！',
  requestFailed: '请求失败，请稍后重试！',
} as const;

/** The client's messages and the server's answers. */
export const Messages = {
  ...ClientMessages,
  notLoggedIn: '请先登录',
  sessionExpired: '登录已过期，请重新登录',
  sessionEnded: '您的登录已失效，请重新登录',
  forbidden: '无权限',
  apiNotFound: '接口不存在',
  badCredentials: '用户名或密码错误',
  tooManyLogins: '登录失败次数过多，请15分钟后再试',
  exportsBusy: '导出任务较多，请稍后再试',
} as const;

/** The envelope every JSON response carries. */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}
