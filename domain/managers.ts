import { labeledEnum } from './labels';

/** Manager status: 1 启用, 0 禁用 (a disabled manager cannot log in; his sessions end). */
export const ManagerStatus = labeledEnum({
  1: { label: '启用', color: 'success' },
  0: { label: '禁用', color: 'default' },
});

/** User names: 4–20 letters or digits. */
export const USERNAME_PATTERN = '^[A-Za-z0-9]{4,20}$';
export const isValidUsername = (u: string) => new RegExp(USERNAME_PATTERN).test(u);

/** Manager password policy: 8–64 letters and digits, at least one of each (server and dialogs). */
export const PASSWORD_PATTERN = '^(?=.*[A-Za-z])(?=.*\\d)[A-Za-z\\d]{8,64}$';
export const isStrongPassword = (p: string) => new RegExp(PASSWORD_PATTERN).test(p);

/** The server's wording, shared so a dialog says what the server would. */
export const USERNAME_RULE_TEXT = '用户名须为4-20位字母或数字';
export const PASSWORD_RULE_TEXT = '密码须为8-64位字母和数字，且同时包含字母和数字';
