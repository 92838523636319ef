import { Type } from '@sinclair/typebox';
import { PaymentStatus as StatusEnum, PaymentType as TypeEnum } from '../../../domain/payments';
import { ExportFormatQuery } from '../../export/export';
import {
  CursorQuery,
  CursorResult,
  IdParam,
  EnumSchema,
  MultilineText,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
  MemberColumns,
  Nullable,
} from '../../http/schemas';

/** 1 银行卡, 2 支付宝, 3 微信, 4 USDT-TRC20 */
export const PaymentType = EnumSchema(TypeEnum);
/** 0 待审核, 1 已通过, 2 已驳回, 3 已禁用 */
export const PaymentStatus = EnumSchema(StatusEnum);

/** The filters the list and the export share. */
const PaymentFilters = {
  keyword: Type.Optional(
    Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact) or phone (prefix)' }),
  ),
  memberId: Type.Optional(IdParam('会员ID')),
  type: Type.Optional(PaymentType),
  status: Type.Optional(PaymentStatus),
  ...RangeQuery,
};
const PaymentSort = Type.Optional(StringEnum(['id', 'createdAt'], { title: '排序字段' }));

export const PaymentListQuery = Type.Object(
  { ...PageQuery, ...CursorQuery, sort: PaymentSort, ...PaymentFilters },
  { additionalProperties: false },
);

export const PaymentExportQuery = Type.Object(
  {
    ...PaymentFilters,
    sort: PaymentSort,
    order: PageQuery.order,
    ...ExportFormatQuery,
  },
  { additionalProperties: false },
);

export const PaymentRow = Type.Object({
  id: Type.Integer(),
  ...MemberColumns,
  type: PaymentType,
  holder: Type.String({ description: 'holder / real name' }),
  account: Type.String({ description: 'card number, Alipay account, WeChat id or TRC20 address' }),
  bank: Type.String({ description: 'type 1 only' }),
  branch: Type.String({ description: 'type 1 only' }),
  qrUrl: Type.String({ description: 'QR image URL, types 2 and 3' }),
  status: PaymentStatus,
  remark: Type.String(),
  auditorName: Nullable(Type.String()),
  auditedAt: Nullable(Type.Integer({ description: 'epoch ms' })),
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

export const PaymentListResult = Ok(PageOf(PaymentRow, { ...CursorResult }));

export const PaymentOptBody = Type.Object(
  {
    id: IdParam('收款方式ID'),
    action: StringEnum(['approve', 'reject', 'disable', 'enable'], {
      title: '操作',
      description: 'approve 0→1, reject 0→2 (remark), disable 1→3, enable 3→1',
    }),
    remark: Type.Optional(MultilineText('备注', 200, { description: 'required for reject' })),
  },
  { additionalProperties: false },
);
export const PaymentOptResult = Ok(Type.Object({ id: Type.Integer(), status: PaymentStatus }));
