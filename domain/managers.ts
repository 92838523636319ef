import { defineEnum } from './enums';

/** Manager status: 1 启用, 0 禁用 (a disabled manager cannot log in; his sessions end). */
export const ManagerStatus = defineEnum('状态', {
  enabled: [1, '启用', 'success'],
  disabled: [0, '禁用', 'default'],
});

/** User names: 4–20 letters or digits. */
export const USERNAME_PATTERN = '^[A-Za-z0-9]{4,20}$';
export const isValidUsername = (u: string) => new RegExp(USERNAME_PATTERN).test(u);

/**
 * Manager password policy, after NIST SP 800-63B and OWASP ASVS: length is what counts, so any
 * printable characters and spaces are allowed and nothing about their mix is required; 10 to 64
 * characters (code points, after NFKC normalisation, as the server hashes them), no control
 * characters, not the user name, not one short run repeated. The server also refuses the passwords
 * of its common-password list (server/passwords.ts); the dialogs leave that one to the server's 400.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 64;

/** Control characters (C0, DEL, C1) and lone surrogates: invisible, and not what the user typed. */
const FORBIDDEN = /[\p{Cc}\p{Cs}]/u;

/** One to four characters over and over ('aaaaaaaaaa', '1212121212', 'abcabcabca'): as weak as any list entry. */
export function isRepetitive(password: string): boolean {
  const chars = [...password.toLowerCase()];
  for (let unit = 1; unit <= 4 && unit < chars.length; unit++) {
    if (chars.every((c, i) => c === chars[i % unit])) return true;
  }
  return false;
}

export const commonPasswordText = (field = '密码') => `${field}过于常见，请换一个`;

/**
 * The Chinese reason a password is refused, naming the field ('密码', '新密码'), or null when the
 * rules a client can check all pass.
 */
export function passwordProblem(password: string, opts: { field?: string; username?: string } = {}): string | null {
  const field = opts.field ?? '密码';
  const p = password.normalize('NFKC');
  if (FORBIDDEN.test(p)) return `${field}不能包含控制字符`;
  const length = [...p].length;
  if (length < PASSWORD_MIN) return `${field}至少${PASSWORD_MIN}位`;
  if (length > PASSWORD_MAX) return `${field}不能超过${PASSWORD_MAX}位`;
  if (opts.username && p.toLowerCase() === opts.username.trim().toLowerCase()) return `${field}不能与用户名相同`;
  if (isRepetitive(p)) return commonPasswordText(field);
  return null;
}

export const isStrongPassword = (password: string, username?: string) =>
  passwordProblem(password, { username }) === null;

/** The server's wording, shared so a dialog says what the server would. */
export const USERNAME_RULE_TEXT = '用户名须为4-20位字母或数字';
export const PASSWORD_RULE_TEXT = '10-64位，可用任意字母、数字、符号和空格；不能是常见密码，也不能与用户名相同';
