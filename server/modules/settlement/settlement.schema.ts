import { Type, type Static } from '@sinclair/typebox';
import { SettlementStatus as StatusEnum } from '../../../domain/settlement';
import { EnumSchema, Nullable, NullableInt } from '../../http/schemas';

/** 1 进行中, 2 已完成, 3 失败 */
export const SettlementStatus = EnumSchema(StatusEnum);

/**
 * One run of the daily settlement job as the pledge and seed pages show it (their lists answer it as
 * `lastRun` beside `list` and `total`, null before the first run).
 */
export const SettlementRunView = Type.Object(
  {
    day: Type.String({ description: 'the settled Asia/Shanghai day, YYYY-MM-DD' }),
    status: SettlementStatus,
    statusText: Type.String({
      description: '进行中, 已完成, 失败, or 未完成（将重试） for a run whose process stopped before finishing',
    }),
    startedAt: Type.Integer({ description: 'epoch ms' }),
    finishedAt: NullableInt,
    pledges: Type.Integer({ description: 'pledges paid this day' }),
    pledgeYield: Type.String({ description: 'LZ yield paid (bill 8 质押收益)' }),
    pledgePrincipal: Type.String({ description: 'LZ principal returned (bill 9 质押赎回)' }),
    seeds: Type.Integer({ description: 'seeds released this day' }),
    seedEnergy: Type.String({ description: 'ENERGY released (bill 10 种子释放)' }),
    matchesCancelled: Type.Integer({ description: 'expired unpaid matches cancelled' }),
    error: Type.String({ description: 'why the run failed ("" unless status 3)' }),
  },
  { title: '最近结算' },
);
export type SettlementRunView = Static<typeof SettlementRunView>;

/** `lastRun` of a list response: the latest run, or null before the first. */
export const LastRun = Nullable(SettlementRunView);
