/**
 * The mall's rules shared by the server and the editors: SKU limits, the spec table's rows, order
 * numbers and every refusal's wording. Apart from domain/mall.ts (the enums the list pages show) so that
 * the list pages' shared chunk does not carry what only the server and the editors read.
 */
/** A tracking number: 6–30 letters and digits. */
export const TRACKING_NO_PATTERN = '^[A-Za-z0-9]{6,30}$';

/** Limits of a product's SKU set (the editor and the server read the same). */
export const SkuLimits = {
  /** Spec dimensions (颜色, 尺寸, …). */
  dims: 3,
  /** Values per dimension. */
  values: 20,
  /** Rows of one product. */
  skus: 200,
  /** Characters of a dimension name or value. */
  nameLength: 10,
  /** Largest stock of one SKU. */
  stock: 1_000_000_000,
  /** Gallery images. */
  gallery: 9,
} as const;

/** A spec dimension and its values, in the order the editor shows them. */
export interface SpecDim {
  name: string;
  values: string[];
}

/**
 * The rows of a spec table: every combination of the dimensions' values, first dimension slowest
 * (颜色 红/蓝 × 尺寸 S/M → 红S 红M 蓝S 蓝M). No dimensions: one row with no values.
 */
export function specCombinations(dims: readonly SpecDim[]): string[][] {
  let rows: string[][] = [[]];
  for (const d of dims) rows = rows.flatMap((r) => d.values.map((v) => [...r, v]));
  return rows;
}

/** How a SKU's values read on screen and in an order's snapshot: "颜色:红, 尺寸:L" ("" with no dimensions). */
export function specText(dims: readonly SpecDim[], values: readonly string[]): string {
  return dims.map((d, i) => `${d.name}:${values[i] ?? ''}`).join(', ');
}

export const MallMessages = {
  productNotFound: '商品不存在',
  productHandled: '该商品状态已变化，请刷新后重试',
  noStock: '没有有库存的规格，不能上架',
  hasOpenOrders: '该商品有未完成的订单，不能删除（可先下架）',
  deleteOnShelf: '上架中的商品不能删除，请先下架',
  nameRequired: '商品名称不能为空',
  seedTermsRequired: '种子商品须填写总能量和释放天数',
  coverRequired: '请上传商品封面',
  kindLocked: '已有订单的商品不能修改类型或支付币种',
  dimNameRequired: '规格名不能为空',
  dimNameRepeated: '规格名不能重复',
  dimValuesRequired: '每个规格至少需要一个规格值',
  dimValueRequired: '规格值不能为空',
  dimValueRepeated: '同一规格的规格值不能重复',
  tooManyDims: `规格最多${SkuLimits.dims}个`,
  tooManyValues: `每个规格最多${SkuLimits.values}个规格值`,
  tooManySkus: `规格组合最多${SkuLimits.skus}个`,
  skusMismatch: '规格明细与规格组合不一致，请重新生成',
  stockChanged: '库存已变动（有会员下单），请刷新后重试',
  orderNotFound: '订单不存在',
  orderHandled: '该订单已处理',
  shipFields: '请选择快递公司并填写快递单号',
  remarkRequired: '取消原因不能为空',
  offShelf: '商品已下架',
  soldOut: '库存不足',
  badQuantity: '购买数量必须是1到99的整数',
  memberMissing: '会员不存在',
  memberFrozen: '会员已冻结',
  receiverRequired: '收货人、电话和地址不能为空',
  tooLarge: '订单金额超出允许范围',
} as const;

const SHANGHAI = 8 * 3600_000;
/** The digits of the id in an order's number. */
export const ORDER_ID_DIGITS = 10;

/**
 * An order's number: its Asia/Shanghai date and its id in ten digits ("20261125" + "0000012345").
 * Not stored: unique because the id is, and a search by number reads one row by primary key.
 */
export function orderNo(id: number, createdAt: number): string {
  const d = new Date(createdAt + SHANGHAI);
  const day = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `${day}${String(id).padStart(ORDER_ID_DIGITS, '0')}`;
}

/**
 * orderNo for a million rows (an export): the same text, the date of each day worked out once (kept by
 * day number, the last 4,096 days; rows come newest first) instead of a Date per order.
 */
export function orderNoFormatter(): (id: number, createdAt: number) => string {
  const days = new Map<number, string>();
  return (id, createdAt) => {
    const d = Math.floor((createdAt + SHANGHAI) / 86_400_000);
    let day = days.get(d);
    if (day === undefined) {
      if (days.size >= 4096) days.clear();
      day = orderNo(0, createdAt).slice(0, 8);
      days.set(d, day);
    }
    return `${day}${String(id).padStart(ORDER_ID_DIGITS, '0')}`;
  };
}

/** The id an order number names (null when it is not one: 18 digits). The caller compares the date. */
export function orderIdOf(no: string): number | null {
  if (!/^\d{18}$/.test(no)) return null;
  const id = Number(no.slice(8));
  return id > 0 ? id : null;
}
