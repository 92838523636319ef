import { Type } from '@sinclair/typebox';
import { PledgeModeStatus as ModeStatusEnum, PledgeStatus as StatusEnum } from '../../../domain/pledge';
import { ExportFormatQuery } from '../../export/export';
import {
  CursorQuery,
  CursorResult,
  DecimalString,
  EnumSchema,
  IdParam,
  MemberColumns,
  MoneyString,
  NullableInt,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
} from '../../http/schemas';
import { LastRun } from '../settlement/settlement.query';

/** 0 停用, 1 启用 */
export const PledgeModeStatus = EnumSchema(ModeStatusEnum);
/** 1 质押中, 2 已到期 */
export const PledgeStatus = EnumSchema(StatusEnum);

/** The filters the list and the export share. */
const PledgeFilters = {
  keyword: Type.Optional(
    Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact), phone (prefix) or nickname' }),
  ),
  memberId: Type.Optional(IdParam('会员ID')),
  modeId: Type.Optional(IdParam('质押模式')),
  status: Type.Optional(PledgeStatus),
  ...RangeQuery,
};
const PledgeSort = Type.Optional(StringEnum(['id'], { title: '排序字段' }));

export const PledgeListQuery = Type.Object(
  { ...PageQuery, ...CursorQuery, sort: PledgeSort, ...PledgeFilters },
  { additionalProperties: false },
);

export const PledgeExportQuery = Type.Object(
  { ...PledgeFilters, sort: PledgeSort, order: PageQuery.order, ...ExportFormatQuery },
  { additionalProperties: false },
);

export const PledgeRow = Type.Object({
  id: Type.Integer(),
  ...MemberColumns,
  modeId: Type.Integer(),
  modeName: Type.String({ description: 'the mode name when the pledge started' }),
  amount: Type.String({ description: 'LZ' }),
  rate: Type.String({ description: 'daily rate, decimal ("0.0123" = 1.23 %)' }),
  days: Type.Integer(),
  dailyYield: Type.String({ description: 'LZ paid each day but the last' }),
  totalYield: Type.String({ description: 'LZ paid over all days' }),
  startDate: Type.String({ description: 'Asia/Shanghai day the pledge started, YYYY-MM-DD' }),
  endDate: Type.String({ description: 'its last release day (principal returned), YYYY-MM-DD' }),
  paidDate: Type.String({ description: 'the last day released so far (= startDate before the first)' }),
  released: Type.String({ description: 'LZ yield paid so far' }),
  status: PledgeStatus,
  createdAt: Type.Integer({ description: 'epoch ms' }),
  finishedAt: NullableInt,
});

export const PledgeListResult = Ok(
  PageOf(PledgeRow, {
    ...CursorResult,
    sum: Type.Object({
      amount: Type.String({ description: 'sum of amount over all filtered rows (LZ)' }),
      released: Type.String({ description: 'sum of released over all filtered rows (LZ)' }),
    }),
    lastRun: LastRun,
  }),
);

export const PledgeModeRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  days: Type.Integer(),
  rate: Type.String({ description: 'daily rate, decimal ("0.0123" = 1.23 %)' }),
  minAmount: Type.String({ description: 'LZ' }),
  maxAmount: Type.String({ description: 'LZ' }),
  status: PledgeModeStatus,
  sort: Type.Integer(),
  inUse: Type.Integer({ description: 'pledges of this mode in 质押中' }),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});

export const PledgeModeListResult = Ok(Type.Object({ list: Type.Array(PledgeModeRow) }));

export const PledgeModeBody = Type.Object(
  {
    id: Type.Optional(IdParam('模式ID')),
    name: Type.String({ minLength: 1, maxLength: 40, title: '模式名称' }),
    days: Type.Integer({ minimum: 1, maximum: 3650, title: '天数' }),
    rate: DecimalString('日收益率', { description: 'decimal, 0 < r ≤ 0.05, at most 6 decimals ("0.0123" = 1.23 %)' }),
    minAmount: MoneyString('最低金额'),
    maxAmount: MoneyString('最高金额'),
    status: Type.Optional(PledgeModeStatus),
    sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 99999, title: '排序' })),
  },
  { additionalProperties: false },
);

export const PledgeModeResult = Ok(PledgeModeRow);

export const PledgeReleaseListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    pledgeId: Type.Optional(IdParam('质押ID')),
    memberId: Type.Optional(IdParam('会员ID')),
    keyword: Type.Optional(
      Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact), phone (prefix) or nickname' }),
    ),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const PledgeReleaseRow = Type.Object({
  id: Type.Integer(),
  pledgeId: Type.Integer(),
  ...MemberColumns,
  day: Type.String({ description: 'the released Asia/Shanghai day, YYYY-MM-DD' }),
  amount: Type.String({ description: 'LZ yield (bill 质押收益)' }),
  principal: Type.String({ description: 'LZ principal returned that day (bill 质押赎回), "0" but on the end day' }),
  createdAt: Type.Integer(),
});

export const PledgeReleaseListResult = Ok(
  PageOf(PledgeReleaseRow, {
    ...CursorResult,
    sum: Type.Object({ amount: Type.String(), principal: Type.String() }),
  }),
);
