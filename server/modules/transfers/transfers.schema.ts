import { Type } from '@sinclair/typebox';
import { TransferAssets } from '../../../domain/transfers';
import { CursorQuery, CursorResult, Ok, PageOf, PageQuery, RangeQuery, StringEnum } from '../../http/schemas';

export const TransferAsset = StringEnum([...TransferAssets], { title: '资产', description: 'USDT or LZ' });

export const TransferListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt'], { title: '排序字段' })),
    uid: Type.Optional(
      Type.String({ maxLength: 8, pattern: '^\\d{0,8}$', title: '会员UID', description: 'either side, exact' }),
    ),
    asset: Type.Optional(TransferAsset),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const TransferRow = Type.Object({
  id: Type.Integer(),
  fromMemberId: Type.Integer(),
  fromUid: Type.String(),
  fromNickname: Type.String(),
  toMemberId: Type.Integer(),
  toUid: Type.String(),
  toNickname: Type.String(),
  asset: TransferAsset,
  amount: Type.String({ description: 'what the receiver got' }),
  fee: Type.String({ description: 'paid by the sender on top of amount' }),
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

export const TransferListResult = Ok(
  PageOf(TransferRow, {
    ...CursorResult,
    sum: Type.Object({
      count: Type.Integer(),
      /** One entry per asset among the filtered rows (amounts of two assets never add up). */
      byAsset: Type.Array(Type.Object({ asset: TransferAsset, amount: Type.String(), fee: Type.String() })),
    }),
  }),
);
