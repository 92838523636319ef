import { Type } from '@sinclair/typebox';
import { billTypeValues } from '../../../domain/bills';
import {
  AssetSchema,
  CursorQuery,
  CursorResult,
  IdParam,
  IntEnum,
  Nullable,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
  MemberColumns,
} from '../../http/schemas';

export const BillTypeEnum = IntEnum(billTypeValues, {
  title: '类型',
  description: '1 充值 … 17 能量消耗 (see bill/types)',
});
export const AssetEnum = AssetSchema('资产');

const BillFilters = {
  keyword: Type.Optional(
    Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact) or phone (prefix)' }),
  ),
  memberId: Type.Optional(IdParam('会员ID')),
  type: Type.Optional(BillTypeEnum),
  ...RangeQuery,
};

export const BillQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt'], { title: '排序字段' })),
    asset: Type.Optional(AssetEnum),
    ...BillFilters,
  },
  { additionalProperties: false },
);

/** change/list (POST, SPEC.md): the ENERGY bills, the same filters in the body. */
export const ChangeListBody = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt'], { title: '排序字段' })),
    ...BillFilters,
  },
  { additionalProperties: false },
);

export const BillRow = Type.Object({
  id: Type.Integer(),
  ...MemberColumns,
  asset: AssetEnum,
  type: BillTypeEnum,
  change: Type.String({ description: 'signed change of available' }),
  availableAfter: Type.String(),
  frozenChange: Type.String({ description: 'signed change of frozen' }),
  frozenAfter: Type.String(),
  refKind: Type.String({ description: 'what caused it: withdrawal, deposit, transfer… ("" for none)' }),
  refId: Nullable(Type.Integer()),
  remark: Type.String(),
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

export const BillPage = PageOf(BillRow, {
  ...CursorResult,
  totalCapped: Type.Boolean({
    description:
      'true: a member filter matches more bills than `total` (its count stops at the cap); page on with `after`',
  }),
  sum: Nullable(
    Type.Object({
      /** Sum of change per asset of the filtered rows (amounts of two assets never add up). */
      byAsset: Type.Array(Type.Object({ asset: AssetEnum, change: Type.String(), frozenChange: Type.String() })),
    }),
    { description: 'null when the total is capped (a member filter): narrow the filters to see the sum' },
  ),
});
export const BillListResult = Ok(BillPage);

export const BillTypesResult = Ok(Type.Array(Type.Object({ type: BillTypeEnum, label: Type.String() })));
