/** 数据统计 (SPEC.md GET stat) and the welcome page's waiting counts. */
import { Type } from '@sinclair/typebox';
import { StatFigures, StatSeries } from '../../../domain/stats';
import { WaitingItems } from '../../../domain/waiting';
import { AssetSchema, Nullable, NullableInt, Ok, StringEnum } from '../../http/schemas';

const keysOf = (o: object) => Object.keys(o) as [string, ...string[]];

export const StatQuery = Type.Object(
  {
    start: Type.Optional(Type.String({ maxLength: 30, title: '开始日期', description: 'YYYY-MM-DD (Asia/Shanghai)' })),
    end: Type.Optional(Type.String({ maxLength: 30, title: '结束日期', description: 'YYYY-MM-DD; at most 366 days' })),
  },
  { additionalProperties: false },
);

export const StatResult = Ok(
  Type.Object({
    start: Type.String(),
    end: Type.String(),
    days: Type.Array(Type.String(), { description: 'every day of the range, YYYY-MM-DD' }),
    figures: Type.Array(
      Type.Object({
        key: StringEnum(keysOf(StatFigures)),
        count: NullableInt,
        amount: Nullable(Type.String()),
        asset: Nullable(AssetSchema('资产')),
      }),
    ),
    series: Type.Array(
      Type.Object({
        key: StringEnum(keysOf(StatSeries)),
        asset: Nullable(AssetSchema('资产')),
        points: Type.Array(Type.String(), { description: 'one per day: a count or an amount' }),
      }),
    ),
  }),
);

export const WelcomeResult = Ok(
  Type.Object({
    username: Type.String(),
    lastLoginAt: NullableInt,
    lastLoginIp: Type.String(),
    waiting: Type.Array(
      Type.Object({
        key: StringEnum(keysOf(WaitingItems)),
        count: Type.Integer(),
        amount: Nullable(Type.String()),
        asset: Nullable(AssetSchema('资产')),
      }),
    ),
  }),
);
