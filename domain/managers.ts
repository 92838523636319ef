import { labeledEnum } from './labels';

/** Manager status: 1 启用, 0 禁用 (a disabled manager cannot log in; his sessions end). */
export const ManagerStatus = labeledEnum({
  1: { label: '启用', color: 'success' },
  0: { label: '禁用', color: 'default' },
});

/** User names: 4–20 letters or digits. */
export const USERNAME_PATTERN = '^[A-Za-z0-9]{4,20}$';
export const isValidUsername = (u: string) => new RegExp(USERNAME_PATTERN).test(u);
