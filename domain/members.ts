import { labeledEnum } from './labels';

/** Member status: 1 正常, 2 冻结 (cannot log in), 3 禁止提现. */
export const MemberStatus = labeledEnum({
  1: { label: '正常', color: 'success' },
  2: { label: '冻结', color: 'error' },
  3: { label: '禁止提现', color: 'warning' },
});
export const RealNameStatus = labeledEnum({
  0: { label: '未认证', color: 'default' },
  1: { label: '已认证', color: 'success' },
});
/** Levels 0–5: 普通会员, V1–V5. */
export const MemberLevel = labeledEnum({
  0: { label: '普通会员', color: 'default' },
  1: { label: 'V1', color: 'info' },
  2: { label: 'V2', color: 'info' },
  3: { label: 'V3', color: 'primary' },
  4: { label: 'V4', color: 'primary' },
  5: { label: 'V5', color: 'secondary' },
});
export const ZoneStatus = labeledEnum({
  1: { label: '启用', color: 'success' },
  0: { label: '停用', color: 'default' },
});
/** Mainland mobile numbers: 11 digits starting with 1[3-9]. */
export const PHONE_PATTERN = '^1[3-9]\\d{9}$';

/** Member passwords: 6–20 letters and digits, at least one of each. */
export const MEMBER_PASSWORD_PATTERN = '^(?=.*[A-Za-z])(?=.*\\d)[A-Za-z\\d]{6,20}$';
/** Member uids: 8 digits, never starting with 0. */
export const UID_PATTERN = '^[1-9]\\d{7}$';
/** `member/opt` actions and the permission each needs (adjust moves money: its own code). */
export const MemberActions = [
  'freeze',
  'unfreeze',
  'banWithdraw',
  'setLevel',
  'setZone',
  'resetPassword',
  'adjust',
] as const;
export type MemberAction = (typeof MemberActions)[number];
export const memberActionCode = (action: MemberAction) => (action === 'adjust' ? 'member:adjust' : 'member:opt');
export const MemberActionLabels: Record<MemberAction, string> = {
  freeze: '冻结',
  unfreeze: '解冻',
  banWithdraw: '禁止提现',
  setLevel: '修改等级',
  setZone: '修改专区',
  resetPassword: '重置密码',
  adjust: '调整余额',
};
/** `zone/opt` actions. */
export const ZoneActions = ['create', 'update', 'enable', 'disable', 'delete'] as const;
export type ZoneAction = (typeof ZoneActions)[number];
