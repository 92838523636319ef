import { labeledEnum } from './labels';

/** Payment method type (DOMAIN.md §3 Members): 1 银行卡, 2 支付宝, 3 微信, 4 USDT-TRC20. */
export const PaymentType = labeledEnum({
  1: { label: '银行卡', color: 'primary' },
  2: { label: '支付宝', color: 'info' },
  3: { label: '微信', color: 'success' },
  4: { label: 'USDT-TRC20', color: 'secondary' },
});
export type PaymentType = 1 | 2 | 3 | 4;

/** Payment method status: 0 待审核, 1 已通过, 2 已驳回, 3 已禁用. */
export const PaymentStatus = labeledEnum({
  0: { label: '待审核', color: 'warning' },
  1: { label: '已通过', color: 'success' },
  2: { label: '已驳回', color: 'error' },
  3: { label: '已禁用', color: 'default' },
});
export type PaymentStatus = 0 | 1 | 2 | 3;
export const PaymentState = { pending: 0, approved: 1, rejected: 2, disabled: 3 } as const;

/** Manager actions on a payment method, with the states each may start from and where it goes. */
export const PaymentActions = {
  approve: { label: '通过', from: [0], to: 1 },
  reject: { label: '驳回', from: [0], to: 2 },
  disable: { label: '禁用', from: [1], to: 3 },
  enable: { label: '启用', from: [3], to: 1 },
} as const;
export type PaymentAction = keyof typeof PaymentActions;
