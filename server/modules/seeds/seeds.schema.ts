import { Type } from '@sinclair/typebox';
import { SeedSource as SourceEnum, SeedStatus as StatusEnum } from '../../../domain/seeds';
import {
  CursorQuery,
  CursorResult,
  EnumSchema,
  IdParam,
  MemberColumns,
  NullableInt,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
} from '../../http/schemas';
import { LastRun } from '../settlement/settlement.query';

/** 1 商城购买, 2 后台赠送, 3 活动奖励 */
export const SeedSource = EnumSchema(SourceEnum);
/** 1 生长中, 2 已成熟 */
export const SeedStatus = EnumSchema(StatusEnum);

const Keyword = Type.Optional(
  Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact), phone (prefix) or nickname' }),
);

export const SeedListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id'], { title: '排序字段' })),
    keyword: Keyword,
    memberId: Type.Optional(IdParam('会员ID')),
    source: Type.Optional(SeedSource),
    status: Type.Optional(SeedStatus),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const SeedRow = Type.Object({
  id: Type.Integer(),
  ...MemberColumns,
  name: Type.String(),
  source: SeedSource,
  refId: NullableInt,
  totalEnergy: Type.String({ description: 'ENERGY' }),
  dailyEnergy: Type.String({ description: 'floor(total / days); the end day releases the rest' }),
  released: Type.String(),
  days: Type.Integer(),
  startDay: Type.String({
    description: 'the day it was granted, YYYY-MM-DD (Asia/Shanghai); releases start the next day',
  }),
  endDay: Type.String({ description: 'the last release day, YYYY-MM-DD' }),
  paidDay: Type.String({ description: 'the last day released, YYYY-MM-DD (= startDay before the first release)' }),
  status: SeedStatus,
  createdAt: Type.Integer({ description: 'epoch ms' }),
  finishedAt: NullableInt,
});

export const SeedListResult = Ok(
  PageOf(SeedRow, {
    ...CursorResult,
    sum: Type.Object({
      totalEnergy: Type.String({ description: 'sum over all filtered seeds' }),
      released: Type.String(),
      count: Type.Integer(),
    }),
    lastRun: LastRun,
  }),
);

export const SeedReleaseListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    seedId: Type.Optional(IdParam('种子ID')),
    keyword: Keyword,
    memberId: Type.Optional(IdParam('会员ID')),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const SeedReleaseRow = Type.Object({
  id: Type.Integer(),
  seedId: Type.Integer(),
  ...MemberColumns,
  day: Type.String({ description: 'YYYY-MM-DD (Asia/Shanghai)' }),
  amount: Type.String({ description: 'ENERGY' }),
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

export const SeedReleaseListResult = Ok(
  PageOf(SeedReleaseRow, {
    ...CursorResult,
    sum: Type.Object({ amount: Type.String(), count: Type.Integer() }),
  }),
);
