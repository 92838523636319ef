import { defineEnum, type EnumValue } from './enums';

/** A pledge mode's status: 0 停用 (no new pledges), 1 启用. A mode in use is never deleted. */
export const PledgeModeStatus = defineEnum('状态', {
  disabled: [0, '停用', 'default'],
  enabled: [1, '启用', 'success'],
});
export type PledgeModeStatus = EnumValue<typeof PledgeModeStatus>;

/** A pledge's status: 1 质押中 (earning daily), 2 已到期 (principal returned on the end day). */
export const PledgeStatus = defineEnum('状态', {
  active: [1, '质押中', 'success'],
  finished: [2, '已到期', 'default'],
});
export type PledgeStatus = EnumValue<typeof PledgeStatus>;

/** The largest daily rate of a mode: 0.05 (5 %), as a numerator over 10^RATE_DECIMALS. */
export const PLEDGE_MAX_RATE = 50_000n;
/** A mode's days: 1 … 3650. */
export const PLEDGE_MAX_DAYS = 3650;

/** The refusals of the pledge module (server/modules/pledge), word for word. */
export const PledgeMessages = {
  modeNotFound: '质押模式不存在',
  modeDisabled: '该质押模式已停用',
  nameRequired: '模式名称不能为空',
  nameTaken: '模式名称已存在',
  rateTooHigh: '日收益率不能超过0.05',
  maxBelowMin: '最高金额不能低于最低金额',
  memberMissing: '会员不存在',
  memberFrozen: '会员已冻结',
} as const;
