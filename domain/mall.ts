import { defineEnum, defineTransitions, type EnumValue } from './enums';

/** Product kind (DOMAIN.md §3 Mall): 1 实物 (shipped), 2 种子 (buying one grants a seed). */
export const ProductKind = defineEnum('商品类型', {
  goods: [1, '实物', 'primary'],
  seed: [2, '种子', 'success'],
});
export type ProductKind = EnumValue<typeof ProductKind>;

/** Product status: 0 下架, 1 上架. */
export const ProductStatus = defineEnum('状态', {
  off: [0, '下架', 'default'],
  on: [1, '上架', 'success'],
});
export type ProductStatus = EnumValue<typeof ProductStatus>;

/** Order status: 1 待发货, 2 已发货, 3 已完成, 4 已取消. */
export const OrderStatus = defineEnum('订单状态', {
  paid: [1, '待发货', 'warning'],
  shipped: [2, '已发货', 'info'],
  done: [3, '已完成', 'success'],
  cancelled: [4, '已取消', 'default'],
});
export type OrderStatus = EnumValue<typeof OrderStatus>;

/**
 * A manager's order actions (order/opt): ship 1→2 with the express company and tracking number,
 * complete 2→3, cancel 1→4 (refund, stock back). A 种子 order is complete when paid (its seed is
 * granted at once: nothing to ship, nothing to take back).
 */
export const OrderActions = defineTransitions(OrderStatus, {
  ship: { label: '发货', from: [1], to: 2 },
  complete: { label: '完成', from: [2], to: 3 },
  cancel: { label: '取消', from: [1], to: 4 },
});
export type OrderAction = 'ship' | 'complete' | 'cancel';

/** product/operate actions. */
export type ProductOperation = 'onShelf' | 'offShelf' | 'delete';
export const ProductOperations: Record<ProductOperation, string> = {
  onShelf: '上架',
  offShelf: '下架',
  delete: '删除',
};

/** Express companies an order ships with (the ship dialog's list; the server accepts only these). */
export const ExpressCompanies = [
  '顺丰速运',
  '中通快递',
  '圆通速递',
  '韵达快递',
  '申通快递',
  '极兔速递',
  '京东物流',
  'EMS',
  '邮政快递包裹',
  '德邦快递',
] as const;
export type ExpressCompany = (typeof ExpressCompanies)[number];
