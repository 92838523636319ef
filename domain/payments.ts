import { defineEnum, defineTransitions, type EnumValue } from './enums';

/** Payment method type (DOMAIN.md §3 Members): 1 银行卡, 2 支付宝, 3 微信, 4 USDT-TRC20. */
export const PaymentType = defineEnum('类型', {
  bank: [1, '银行卡', 'primary'],
  alipay: [2, '支付宝', 'info'],
  wechat: [3, '微信', 'success'],
  usdt: [4, 'USDT-TRC20', 'secondary'],
});
export type PaymentType = EnumValue<typeof PaymentType>;

/** Payment method status: 0 待审核, 1 已通过, 2 已驳回, 3 已禁用. */
export const PaymentStatus = defineEnum('状态', {
  pending: [0, '待审核', 'warning'],
  approved: [1, '已通过', 'success'],
  rejected: [2, '已驳回', 'error'],
  disabled: [3, '已禁用', 'default'],
});
export type PaymentStatus = EnumValue<typeof PaymentStatus>;

/** Manager actions on a payment method, with the states each may start from and where it goes. */
export const PaymentActions = defineTransitions(PaymentStatus, {
  approve: { label: '通过', from: [0], to: 1 },
  reject: { label: '驳回', from: [0], to: 2 },
  disable: { label: '禁用', from: [1], to: 3 },
  enable: { label: '启用', from: [3], to: 1 },
});
export type PaymentAction = 'approve' | 'reject' | 'disable' | 'enable';
