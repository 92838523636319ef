import { defineEnum, defineTransitions, type EnumValue } from './enums';

/** Member status: 1 正常, 2 冻结 (cannot log in), 3 禁止提现. */
export const MemberStatus = defineEnum('状态', {
  normal: [1, '正常', 'success'],
  frozen: [2, '冻结', 'error'],
  noWithdraw: [3, '禁止提现', 'warning'],
});
export type MemberStatus = EnumValue<typeof MemberStatus>;
/** The status changes of `member/opt`, with the states each may start from and where it goes. */
export const MemberStatusActions = defineTransitions(MemberStatus, {
  freeze: { label: '冻结', from: [1, 3], to: 2 },
  unfreeze: { label: '解冻', from: [2, 3], to: 1 },
  banWithdraw: { label: '禁止提现', from: [1], to: 3 },
});
export type MemberStatusAction = 'freeze' | 'unfreeze' | 'banWithdraw';
export const RealNameStatus = defineEnum('实名状态', {
  none: [0, '未认证', 'default'],
  verified: [1, '已认证', 'success'],
});
/** Levels 0–5: 普通会员, V1–V5. */
export const MemberLevel = defineEnum('等级', {
  normal: [0, '普通会员', 'default'],
  v1: [1, 'V1', 'info'],
  v2: [2, 'V2', 'info'],
  v3: [3, 'V3', 'primary'],
  v4: [4, 'V4', 'primary'],
  v5: [5, 'V5', 'secondary'],
});
export const ZoneStatus = defineEnum('状态', {
  enabled: [1, '启用', 'success'],
  disabled: [0, '停用', 'default'],
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
