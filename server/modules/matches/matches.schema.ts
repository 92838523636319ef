import { Type } from '@sinclair/typebox';
import { AppealBy as AppealByEnum, MatchStatus as StatusEnum } from '../../../domain/matches';
import {
  CursorQuery,
  CursorResult,
  EnumSchema,
  IdParam,
  MultilineText,
  NullableInt,
  NullableString,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
} from '../../http/schemas';

/** 1 待付款, 2 待确认收款, 3 已完成, 4 已取消, 5 申诉中 */
export const MatchStatus = EnumSchema(StatusEnum);
/** 0 无, 1 卖家, 2 买家 */
export const AppealBy = EnumSchema(AppealByEnum);

const Keyword = (title: string) =>
  Type.Optional(Type.String({ maxLength: 20, title, description: 'member uid (exact), phone (prefix) or nickname' }));

export const MatchListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id'], { title: '排序字段' })),
    seller: Keyword('卖家'),
    buyer: Keyword('买家'),
    status: Type.Optional(MatchStatus),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const PaymentSnapshotSchema = Type.Object({
  type: Type.Integer({ description: '1 银行卡, 2 支付宝, 3 微信, 4 USDT-TRC20' }),
  name: Type.String({ description: 'the holder' }),
  account: Type.String(),
  bank: Type.String(),
  qrUrl: Type.String(),
});

export const MatchRow = Type.Object({
  id: Type.Integer(),
  sellerId: Type.Integer(),
  sellerUid: Type.String(),
  sellerPhone: Type.String(),
  sellerNickname: Type.String(),
  buyerId: Type.Integer(),
  buyerUid: Type.String(),
  buyerPhone: Type.String(),
  buyerNickname: Type.String(),
  quantity: Type.String({ description: 'LZ' }),
  unitPrice: Type.String({ description: 'USDT per 1 LZ' }),
  total: Type.String({ description: 'USDT, quantity × unit price rounded half up' }),
  payment: PaymentSnapshotSchema,
  proofUrl: Type.String({ description: 'the buyer’s payment proof image ("" before payment)' }),
  status: MatchStatus,
  appealReason: Type.String(),
  appealBy: AppealBy,
  remark: Type.String({ description: 'the arbiter’s remark' }),
  expiresAt: Type.Integer({ description: 'payment deadline, epoch ms' }),
  paidAt: NullableInt,
  finishedAt: NullableInt,
  arbiterName: NullableString,
  createdAt: Type.Integer({ description: 'epoch ms' }),
  updatedAt: Type.Integer({ description: 'epoch ms' }),
});

export const MatchListResult = Ok(
  PageOf(MatchRow, {
    ...CursorResult,
    sum: Type.Object({
      quantity: Type.String({ description: 'LZ, over all filtered matches' }),
      total: Type.String({ description: 'USDT' }),
      count: Type.Integer(),
    }),
  }),
);

export const MatchOptBody = Type.Object(
  {
    id: IdParam('撮合ID'),
    action: StringEnum(['complete', 'cancel'], {
      title: '操作',
      description: 'complete 2|5→3 (LZ to the buyer); cancel 1|2|5→4 (LZ back to the seller, remark required)',
    }),
    remark: Type.Optional(MultilineText('备注', 200, { description: 'required for cancel (1–200 characters)' })),
  },
  { additionalProperties: false },
);
export const MatchOptResult = Ok(Type.Object({ id: Type.Integer(), status: MatchStatus }));
