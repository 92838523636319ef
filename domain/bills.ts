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

/**
 * The console page (path and query, below /layout/) that shows a bill's record: withdrawals and deposits
 * by their id (提取 when the bill is in LZ), the other kinds as the records of the bill's member (a
 * transfer, pledge or order list narrowed to his id or uid exactly; a seed or match list, which have no
 * such filter, to his uid as a keyword, which a phone starting with the same digits also matches; in a match the seller's LZ moves through
 * frozen, the buyer's straight into available, which tells his side), a manager's
 * adjustment as the member himself. Null when the bill names nothing.
 */
export function billRefPath(bill: {
  refKind: string;
  refId?: number | null;
  asset: string;
  frozenChange: string;
  memberId: number;
  uid: string;
}): string | null {
  const id = bill.refId;
  const uid = encodeURIComponent(bill.uid);
  switch (bill.refKind) {
    case 'withdrawal':
      return id ? `withdrawLayout/${bill.asset === 'LZ' ? 'extractListLayout' : 'withdrawListLayout'}?id=${id}` : null;
    case 'deposit':
      return id ? `depositLayout/depositListLayout?id=${id}` : null;
    case 'member':
      return `memberLayout/memberListLayout?keyword=${uid}`;
    case 'transfer':
      return `transferLayout?uid=${uid}`;
    case 'pledge':
      return `pledgeLayout/pledgeListLayout?memberId=${bill.memberId}`;
    case 'seed':
      return `energyLayout/seedLayout?keyword=${uid}`;
    case 'order':
      return `mallLayout/orderLayout?memberId=${bill.memberId}`;
    case 'match':
      return `matchLayout?${/^[+-]?0*(\.0*)?$/.test(bill.frozenChange) ? 'buyer' : 'seller'}=${uid}`;
    default:
      return null;
  }
}
