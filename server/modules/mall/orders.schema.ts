import { Type } from '@sinclair/typebox';
import { ExpressCompanies, OrderStatus as StatusEnum } from '../../../domain/mall';
import { TRACKING_NO_PATTERN } from '../../../domain/mallRules';
import { ExportFormatQuery } from '../../export/export';
import {
  CursorQuery,
  CursorResult,
  EnumSchema,
  IdParam,
  MemberColumns,
  MultilineText,
  NullableInt,
  NullableString,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
} from '../../http/schemas';
import { ProductKind } from './products.schema';

/** 1 待发货, 2 已发货, 3 已完成, 4 已取消 */
export const OrderStatus = EnumSchema(StatusEnum);

/** The filters the list and the export share. */
const OrderFilters = {
  orderNo: Type.Optional(Type.String({ maxLength: 18, pattern: '^\\d{0,18}$', title: '订单号' })),
  keyword: Type.Optional(
    Type.String({ maxLength: 20, title: '会员', description: 'member uid (exact), phone (prefix) or nickname' }),
  ),
  memberId: Type.Optional(IdParam('会员ID')),
  productId: Type.Optional(IdParam('商品ID')),
  status: Type.Optional(OrderStatus),
  ...RangeQuery,
};
const OrderSort = Type.Optional(StringEnum(['id'], { title: '排序字段' }));

export const OrderListQuery = Type.Object(
  { ...PageQuery, ...CursorQuery, sort: OrderSort, ...OrderFilters },
  { additionalProperties: false },
);
export const OrderExportQuery = Type.Object(
  { ...OrderFilters, sort: OrderSort, order: PageQuery.order, ...ExportFormatQuery },
  { additionalProperties: false },
);

export const OrderRow = Type.Object({
  id: Type.Integer(),
  orderNo: Type.String({ description: 'Asia/Shanghai date + id in ten digits' }),
  ...MemberColumns,
  productId: Type.Integer(),
  skuId: Type.Integer(),
  kind: ProductKind,
  asset: Type.String(),
  productName: Type.String(),
  spec: Type.String(),
  image: Type.String(),
  unitPrice: Type.String(),
  quantity: Type.Integer(),
  total: Type.String(),
  receiverName: Type.String(),
  receiverPhone: Type.String(),
  receiverAddress: Type.String(),
  status: OrderStatus,
  expressCompany: Type.String(),
  trackingNo: Type.String(),
  remark: Type.String(),
  seedId: NullableInt,
  operatorName: NullableString,
  createdAt: Type.Integer({ description: 'placed and paid, epoch ms' }),
  shippedAt: NullableInt,
  finishedAt: NullableInt,
  updatedAt: Type.Integer(),
});

export const OrderListResult = Ok(
  PageOf(OrderRow, {
    ...CursorResult,
    sum: Type.Object({
      count: Type.Integer(),
      totals: Type.Array(Type.Object({ asset: Type.String(), total: Type.String() }), {
        description: 'the filter’s order totals per pay asset (cancelled orders included when not filtered out)',
      }),
    }),
  }),
);

export const OrderOptBody = Type.Object(
  {
    id: IdParam('订单ID'),
    action: StringEnum(['ship', 'complete', 'cancel'], {
      title: '操作',
      description: 'ship 1→2 (express company, tracking number); complete 2→3; cancel 1→4 (refund, stock back; remark)',
    }),
    expressCompany: Type.Optional(StringEnum([...ExpressCompanies], { title: '快递公司' })),
    trackingNo: Type.Optional(
      Type.String({ pattern: TRACKING_NO_PATTERN, title: '快递单号', description: '6–30 letters and digits' }),
    ),
    remark: Type.Optional(MultilineText('取消原因', 200)),
  },
  { additionalProperties: false },
);
export const OrderOptResult = Ok(Type.Object({ id: Type.Integer(), status: OrderStatus }));
