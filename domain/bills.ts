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
