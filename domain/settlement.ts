import { defineEnum, type EnumValue } from './enums';

/** A settlement run's state: 1 进行中, 2 已完成, 3 失败 (a failed run is retried by the next run). */
export const SettlementStatus = defineEnum('结算状态', {
  running: [1, '进行中', 'info'],
  done: [2, '已完成', 'success'],
  failed: [3, '失败', 'error'],
});
export type SettlementStatus = EnumValue<typeof SettlementStatus>;

/** What the pages show for a run still marked 进行中 whose process stopped (its lease ran out). */
export const SETTLEMENT_STALLED_TEXT = '未完成（将重试）';

/** What the settlement job says when a run cannot go on. */
export const SettlementMessages = {
  dayNotOver: '只能结算已经结束的日期（北京时间）',
  badDay: '日期格式应为 YYYY-MM-DD',
  leaseLost: '结算租约已被其他进程接管',
  changed: '结算批次中的记录已被修改，本批次未执行',
} as const;
