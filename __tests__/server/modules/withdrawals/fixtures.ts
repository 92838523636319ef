/** Withdrawal rules that let any request through: open all day, 10–1000, 1 % fee (minimum 1), no auto-approve. */
export const WITHDRAW_SETTING = {
  open: true,
  min: '10',
  max: '1000',
  maxTimesPerDay: 0,
  feeRate: '0.01',
  feeMin: '1',
  autoApproveMax: '0',
  openHours: '00:00-24:00',
};
