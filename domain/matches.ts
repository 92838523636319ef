import { defineEnum, defineTransitions, type EnumValue } from './enums';

/** Match status (DOMAIN.md §3 Matches): 1 待付款, 2 待确认收款, 3 已完成, 4 已取消, 5 申诉中. */
export const MatchStatus = defineEnum('状态', {
  unpaid: [1, '待付款', 'warning'],
  paid: [2, '待确认收款', 'info'],
  done: [3, '已完成', 'success'],
  cancelled: [4, '已取消', 'default'],
  appealed: [5, '申诉中', 'error'],
});
export type MatchStatus = EnumValue<typeof MatchStatus>;

/** Who appealed a match: 0 none, 1 the seller, 2 the buyer. */
export const AppealBy = defineEnum('申诉方', {
  none: [0, '无', 'default'],
  seller: [1, '卖家', 'primary'],
  buyer: [2, '买家', 'secondary'],
});
export type AppealBy = EnumValue<typeof AppealBy>;

/** What the members do to a match (member side; no manager route). */
export const MatchMemberActions = defineTransitions(MatchStatus, {
  pay: { label: '确认付款', from: [1], to: 2 },
  confirm: { label: '确认收款', from: [2], to: 3 },
  appeal: { label: '申诉', from: [1, 2], to: 5 },
  expire: { label: '超时取消', from: [1], to: 4 },
});

/** A manager's arbitration (match/opt): complete gives the LZ to the buyer, cancel returns it to the seller. */
export const MatchActions = defineTransitions(MatchStatus, {
  complete: { label: '完成', from: [2, 5], to: 3 },
  cancel: { label: '取消', from: [1, 2, 5], to: 4 },
});
export type MatchAction = 'complete' | 'cancel';

/** The seller's payment method as the match keeps it (a snapshot taken when the match opened). */
export interface PaymentSnapshot {
  /** domain/payments.ts PaymentType: 1 银行卡, 2 支付宝, 3 微信, 4 USDT-TRC20. */
  type: number;
  name: string;
  account: string;
  bank: string;
  qrUrl: string;
}

/** USDT minor units per 1 LZ; the total of `quantity` LZ (minor units, 4 places) rounded half up. */
export function matchTotal(quantity: bigint, unitPrice: bigint): bigint {
  const den = 10n ** 4n;
  return (quantity * unitPrice + den / 2n) / den;
}
