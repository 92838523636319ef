/** The asset query's schemas (资产查询, /query/list). */
import { Type } from '@sinclair/typebox';
import { Ok, PageOf, PageQuery, StringEnum, MemberColumns } from '../../http/schemas';
import { AssetEnum, Keyword } from './members.schema';

export const QueryListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(StringEnum(['memberId', 'available', 'frozen', 'total'], { title: '排序字段' })),
    keyword: Type.Optional(Keyword),
    asset: Type.Optional(AssetEnum),
    minTotal: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: '^\\d+(\\.\\d+)?$',
        title: '最低总额',
        description: 'in each row’s asset',
      }),
    ),
  },
  { additionalProperties: false },
);
export const AssetRow = Type.Object({
  ...MemberColumns,
  asset: AssetEnum,
  available: Type.String(),
  frozen: Type.String(),
  total: Type.String({ description: 'available + frozen' }),
  updatedAt: Type.Integer({ description: 'epoch ms' }),
});
export const AssetSum = Type.Array(
  Type.Object({ asset: AssetEnum, available: Type.String(), frozen: Type.String(), total: Type.String() }),
  { description: 'per asset, over all filtered rows' },
);
export const QueryListResult = Ok(PageOf(AssetRow, { sum: AssetSum }));
