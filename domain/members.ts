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
