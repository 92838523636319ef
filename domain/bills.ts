/** Bill types (DOMAIN.md "Bills and energy"): every balance change writes one bill of one of these. */
export const BillType = {
  deposit: 1,
  withdrawFreeze: 2,
  withdrawSuccess: 3,
  withdrawReject: 4,
  transferOut: 5,
  transferIn: 6,
  pledgeLock: 7,
  pledgeIncome: 8,
  pledgeRedeem: 9,
  seedRelease: 10,
  mallPurchase: 11,
  mallRefund: 12,
  matchFreeze: 13,
  matchDeal: 14,
  matchCancel: 15,
  adminAdjust: 16,
  energyConsume: 17,
} as const;
export type BillType = (typeof BillType)[keyof typeof BillType];

export const BillTypeLabels: Record<BillType, string> = {
  1: '充值',
  2: '提现冻结',
  3: '提现成功',
  4: '提现驳回',
  5: '转账转出',
  6: '转账转入',
  7: '质押锁定',
  8: '质押收益',
  9: '质押赎回',
  10: '种子释放',
  11: '商城消费',
  12: '商城退款',
  13: '撮合冻结',
  14: '撮合成交',
  15: '撮合取消',
  16: '后台调整',
  17: '能量消耗',
};

export const billTypeValues = Object.keys(BillTypeLabels).map(Number) as BillType[];

/** What a bill's reference (`ref_kind`) names, as the 关联 column shows it: one label per kind the server writes. */
export const BillRefLabels: Readonly<Record<string, string>> = {
  deposit: '充值',
  withdrawal: '提现',
  transfer: '转账',
  member: '后台调整',
  pledge: '质押',
  seed: '种子',
  match: '撮合',
  order: '订单',
};

/** "质押 #12": a bill's reference as shown; '-' for none. An unknown kind is shown as 关联, never raw. */
export function billRefText(kind: string, id: number | null): string {
  if (!kind) return '-';
  return `${BillRefLabels[kind] ?? '关联'} #${id ?? ''}`;
}
