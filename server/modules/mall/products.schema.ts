import { Type } from '@sinclair/typebox';
import { ProductKind as KindEnum, ProductStatus as StatusEnum } from '../../../domain/mall';
import { SkuLimits } from '../../../domain/mallRules';
import { RICH_TEXT_MAX } from '../../../domain/richText';
import {
  AssetSchema,
  CursorQuery,
  CursorResult,
  EnumSchema,
  IdParam,
  ImageUrl,
  MAX_INT4,
  MoneyString,
  MultilineText,
  Ok,
  PageOf,
  PageQuery,
  StringEnum,
} from '../../http/schemas';

/** 1 实物, 2 种子 */
export const ProductKind = EnumSchema(KindEnum);
/** 0 下架, 1 上架 */
export const ProductStatus = EnumSchema(StatusEnum);

export const ProductListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'sort'], { title: '排序字段' })),
    name: Type.Optional(Type.String({ maxLength: 60, title: '商品名称', description: 'part of the name' })),
    kind: Type.Optional(ProductKind),
    status: Type.Optional(ProductStatus),
    asset: Type.Optional(AssetSchema('支付币种')),
  },
  { additionalProperties: false },
);

export const ProductRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: ProductKind,
  asset: Type.String(),
  cover: Type.String(),
  /** Derived from the SKUs in stock or not: the lowest price, the sums. */
  price: Type.String({ description: 'lowest SKU price ("0" without SKUs)' }),
  stock: Type.Integer({ description: 'sum of the SKUs’ stock' }),
  sales: Type.Integer({ description: 'sum of the SKUs’ sales (cancelled orders not counted)' }),
  skuCount: Type.Integer(),
  seedEnergy: Type.String({ description: '种子: energy one bought grants ("0" for 实物)' }),
  seedDays: Type.Integer(),
  sort: Type.Integer(),
  status: ProductStatus,
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
  updatedBy: Type.String(),
});

export const ProductListResult = Ok(PageOf(ProductRow, { ...CursorResult }));

export const ProductInfoQuery = Type.Object({ productId: IdParam('商品ID') }, { additionalProperties: false });

export const SpecDimSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: SkuLimits.nameLength, title: '规格名' }),
    values: Type.Array(Type.String({ minLength: 1, maxLength: SkuLimits.nameLength, title: '规格值' }), {
      title: '规格值',
      minItems: 1,
      maxItems: SkuLimits.values,
    }),
  },
  { additionalProperties: false },
);

export const SkuRow = Type.Object({
  id: Type.Integer(),
  values: Type.Array(Type.String()),
  spec: Type.String({ description: '"颜色:红, 尺寸:L"' }),
  price: Type.String(),
  stock: Type.Integer(),
  sales: Type.Integer(),
  image: Type.String(),
});

export const ProductInfo = Type.Object({
  ...ProductRow.properties,
  gallery: Type.Array(Type.String()),
  detail: Type.String({ description: 'sanitized HTML' }),
  specs: Type.Array(SpecDimSchema),
  skus: Type.Array(SkuRow),
  /** Orders not finished (待发货 / 已发货): a product with any cannot be deleted. */
  openOrders: Type.Integer(),
  /** Any order at all: kind and pay asset are then fixed. */
  orders: Type.Integer(),
});
export const ProductInfoResult = Ok(ProductInfo);

export const ProductBody = Type.Object(
  {
    id: Type.Optional(IdParam('商品ID')),
    name: Type.String({ minLength: 1, maxLength: 60, title: '商品名称' }),
    kind: ProductKind,
    asset: AssetSchema('支付币种'),
    cover: ImageUrl('商品封面'),
    gallery: Type.Array(ImageUrl('商品图片'), { title: '商品图片', maxItems: SkuLimits.gallery }),
    detail: MultilineText('商品详情', RICH_TEXT_MAX, { description: 'HTML; sanitized before it is stored' }),
    seedEnergy: Type.Optional(MoneyString('总能量')),
    seedDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, title: '释放天数' })),
    sort: Type.Integer({ minimum: -MAX_INT4, maximum: MAX_INT4, title: '排序' }),
  },
  { additionalProperties: false },
);
export const ProductSaveResult = Ok(Type.Object({ id: Type.Integer() }));

export const SkuBody = Type.Object(
  {
    productId: IdParam('商品ID'),
    specs: Type.Array(SpecDimSchema, { title: '规格', maxItems: SkuLimits.dims }),
    skus: Type.Array(
      Type.Object(
        {
          values: Type.Array(Type.String({ maxLength: SkuLimits.nameLength, title: '规格值' }), {
            title: '规格值',
            maxItems: SkuLimits.dims,
          }),
          price: MoneyString('价格'),
          stock: Type.Integer({ minimum: 0, maximum: SkuLimits.stock, title: '库存' }),
          baseStock: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: SkuLimits.stock,
              title: '原库存',
              description:
                'the stock the editor loaded: an existing SKU then changes by stock − baseStock, so sales made meanwhile are kept',
            }),
          ),
          image: ImageUrl('规格图片'),
        },
        { additionalProperties: false },
      ),
      { title: '规格明细', minItems: 1, maxItems: SkuLimits.skus },
    ),
  },
  { additionalProperties: false },
);

export const ProductOperateBody = Type.Object(
  {
    ids: Type.Array(IdParam('商品ID'), { title: '商品ID', minItems: 1, maxItems: 100 }),
    action: StringEnum(['onShelf', 'offShelf', 'delete'], {
      title: '操作',
      description: 'onShelf 0→1 (needs a SKU in stock), offShelf 1→0, delete (off shelf, no unfinished orders)',
    }),
  },
  { additionalProperties: false },
);
export const ProductOperateResult = Ok(
  Type.Object({
    succeeded: Type.Array(Type.Integer()),
    failed: Type.Array(Type.Object({ id: Type.Integer(), msg: Type.String() })),
  }),
);
