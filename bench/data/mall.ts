/**
 * The mall of the bulk data set (issue 12): products with their SKUs and a million orders, as
 * buyProduct and the managers' order/opt would have left them, every payment and refund a bill in the
 * generator's one replay of money events (bench/data/generate.ts), so the ledger invariant holds.
 *
 * - Products are 实物 (the bench's 种子 purchases are the seeds of bench/data/economy.ts, source 商城购买):
 *   1–6 SKUs each (one dimension 规格 when more than one), paid in USDT (70 %) or LZ; popularity is
 *   skewed (a few products take most orders). A SKU's stock is what is left of STOCK after its sales.
 * - Orders spread over the two years, denser lately (as the matches); each pays its total (bill 11,
 *   the member credited an activity reward first when short). Fates: the last two days mostly 待发货 or
 *   已发货; older ones 已完成 (shipped within two days, completed two to ten days later), 8 % 已取消
 *   three hours after paying (bill 12 商城退款 at that time, the quantity back on the SKU).
 *
 * Amounts are JS numbers of minor units (exact: far below 2^53).
 */
import type { Asset } from '../../domain/assets';
import { BillType } from '../../domain/bills';
import { ExpressCompanies } from '../../domain/mall';
import type { EconomyHost } from './economy';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SPAN = 730 * DAY;
const BATCH = 10_000;
const STOCK = 1_000_000;
const UNIT: Record<'USDT' | 'LZ', number> = { USDT: 1_000_000, LZ: 10_000 };

export const MALL_TABLES = ['product', 'product_sku', 'mall_order'];
/** The big one: its secondary indexes are dropped for the load and rebuilt after. */
export const MALL_BIG_TABLES = ['mall_order'];

const PRODUCT_COLUMNS = [
  'id', 'name', 'kind', 'asset', 'cover', 'gallery', 'detail', 'seed_energy', 'seed_days', 'specs', 'sort', 'status',
  'deleted_at', 'created_at', 'updated_at', 'updated_by',
]; // prettier-ignore
const SKU_COLUMNS = ['id', 'product_id', 'spec', 'spec_values', 'price', 'stock', 'sales', 'image', 'position', 'deleted'];
const ORDER_COLUMNS = [
  'id', 'member_id', 'product_id', 'sku_id', 'kind', 'asset', 'product_name', 'spec', 'image', 'unit_price', 'quantity',
  'total', 'receiver_name', 'receiver_phone', 'receiver_address', 'status', 'express_company', 'tracking_no', 'remark',
  'seed_id', 'operator_name', 'created_at', 'shipped_at', 'finished_at', 'updated_at',
  'buyer_uid', 'buyer_phone', 'buyer_nickname',
]; // prettier-ignore

const NAMES = ['保温杯', '运动T恤', '蓝牙耳机', '茶叶礼盒', '五常大米', '手机支架', '双肩背包', '智能手环', '坚果礼包', '护手霜'];
const ADJ = ['经典款', '升级版', '轻奢', '家用', '便携', '限定', '旗舰', '简约', '加厚', '礼盒装'];
const CITIES = ['北京市朝阳区建国路', '上海市浦东新区世纪大道', '广州市天河区天河路', '深圳市南山区科技园', '杭州市西湖区文三路'];

const nameOf = (i: number) => `${NAMES[i % NAMES.length]}·${ADJ[Math.floor(i / NAMES.length) % ADJ.length]} ${i + 1}`;

export interface MallScale {
  end: number;
  products: number;
  orders: number;
  /** A member's uid, phone and nickname, which each of his orders keeps (from the members' generator). */
  buyer: (member: number) => readonly [uid: string, phone: string, nickname: string];
}

export interface MallTotals {
  products: number;
  skus: number;
  orders: number;
  ordersByStatus: Record<number, number>;
}

export class Mall {
  private readonly skuFirst: Int32Array;
  private readonly skuCount: Int32Array;
  private readonly asset: Uint8Array;
  private readonly price: Float64Array;
  private readonly sales: Float64Array;
  private readonly skus: number;
  private j = 0;
  private next: number;
  private rows: unknown[][] = [];
  private readonly byStatus: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0 };

  constructor(
    private readonly scale: MallScale,
    private readonly host: EconomyHost,
  ) {
    const P = scale.products;
    this.skuFirst = new Int32Array(P);
    this.skuCount = new Int32Array(P);
    this.asset = new Uint8Array(P);
    let n = 0;
    for (let i = 0; i < P; i++) {
      this.skuFirst[i] = n + 1;
      this.skuCount[i] = 1 + Math.floor(host.hash(i, 91) * 6);
      this.asset[i] = host.hash(i, 92) < 0.7 ? 0 : 1;
      n += this.skuCount[i];
    }
    this.skus = n;
    this.price = new Float64Array(n);
    this.sales = new Float64Array(n);
    for (let i = 0; i < P; i++) {
      const unit = UNIT[this.assetOf(i)];
      const base = Math.round((5 + 500 * Math.pow(host.hash(i, 93), 3)) * 10) / 10;
      for (let k = 0; k < this.skuCount[i]; k++) this.price[this.skuFirst[i] - 1 + k] = Math.round((base + k * 2) * unit);
    }
    this.next = this.timeOf(0);
  }

  private assetOf(i: number): 'USDT' | 'LZ' {
    return this.asset[i] === 0 ? 'USDT' : 'LZ';
  }

  private timeOf(j: number) {
    const n = this.scale.orders;
    if (j >= n) return Infinity;
    const u = this.host.hash(j, 94);
    return this.scale.end - SPAN + Math.floor(SPAN * Math.sqrt(Math.min(1, (j + u) / n)));
  }

  nextTime(): number {
    return this.next;
  }

  /** The order due at nextTime(). */
  async step(): Promise<void> {
    const t = this.next;
    const h = this.host;
    const j = this.j++;
    const id = j + 1;
    const end = this.scale.end;
    const product = Math.floor(this.scale.products * Math.pow(h.hash(j, 95), 2.5));
    const k = Math.floor(h.hash(j, 96) * this.skuCount[product]);
    const sku = this.skuFirst[product] + k;
    const asset: Asset = this.assetOf(product);
    const quantity = h.hash(j, 97) < 0.9 ? 1 : 2;
    const unitPrice = this.price[sku - 1];
    const total = unitPrice * quantity;
    const member = h.memberAt(t);
    const held = h.held(member, asset);
    if (held < total) h.bill(member, asset, BillType.adminAdjust, total * 2 - held, 0, 'adjust', null, '活动奖励', t);
    const name = nameOf(product);
    const spec = this.skuCount[product] > 1 ? `规格:${String.fromCharCode(65 + k)}` : '';
    h.bill(member, asset, BillType.mallPurchase, -total, 0, 'order', id, `商城消费 #${id}：${name} × ${quantity}`, t);
    this.sales[sku - 1] += quantity;

    const r = h.hash(j, 98);
    let status: 1 | 2 | 3 | 4;
    let shipped: number | null = null;
    let finished: number | null = null;
    let remark = '';
    const ship = t + 6 * HOUR + Math.floor(h.hash(j, 99) * 42 * HOUR);
    if (r < 0.08 && t + 3 * HOUR <= end) {
      status = 4;
      finished = t + 3 * HOUR;
      remark = '会员申请取消';
      h.schedule(finished, async () => {
        h.bill(member, asset, BillType.mallRefund, total, 0, 'order', id, `商城退款 #${id}：${remark}`, finished!);
        this.sales[sku - 1] -= quantity;
      });
    } else if (ship > end) status = 1;
    else {
      shipped = ship;
      const done = ship + 2 * DAY + Math.floor(h.hash(j, 100) * 8 * DAY);
      if (done > end) status = 2;
      else {
        status = 3;
        finished = done;
      }
    }
    this.byStatus[status] += 1;
    const city = CITIES[member % CITIES.length];
    this.rows.push([
      id,
      member,
      product + 1,
      sku,
      1,
      asset,
      name,
      spec,
      `/uploads/bench/p${product + 1}.webp`,
      unitPrice,
      quantity,
      total,
      `收货人${member % 1000}`,
      `139${String(member % 1e8).padStart(8, '0')}`,
      `${city}${(member % 300) + 1}号`,
      status,
      shipped ? ExpressCompanies[id % ExpressCompanies.length] : '',
      shipped ? `SF${String(id).padStart(12, '0')}` : '',
      remark,
      null,
      status === 1 ? null : status === 3 && h.hash(j, 101) < 0.5 ? '系统' : 'admin',
      t,
      shipped,
      finished,
      finished ?? shipped ?? t,
      ...this.scale.buyer(member),
    ]);
    if (this.rows.length >= BATCH) await h.insert('mall_order', ORDER_COLUMNS, this.rows.splice(0));
    this.next = this.timeOf(this.j);
  }

  /** After the replay: the orders left, then the products and their SKUs with the stock their sales left. */
  async finish(): Promise<MallTotals> {
    const h = this.host;
    if (this.rows.length) await h.insert('mall_order', ORDER_COLUMNS, this.rows.splice(0));
    const created = this.scale.end - SPAN - 2 * DAY;
    const products: unknown[][] = [];
    const skus: unknown[][] = [];
    for (let i = 0; i < this.scale.products; i++) {
      const id = i + 1;
      const count = this.skuCount[i];
      const values = Array.from({ length: count }, (_, k) => String.fromCharCode(65 + k));
      products.push([
        id,
        nameOf(i),
        1,
        this.assetOf(i),
        `/uploads/bench/p${id}.webp`,
        '[]',
        '<p>商品详情</p>',
        0,
        0,
        count > 1 ? JSON.stringify([{ name: '规格', values }]) : '[]',
        i % 100,
        h.hash(i, 102) < 0.9 ? 1 : 0,
        null,
        created,
        created,
        'admin',
      ]);
      for (let k = 0; k < count; k++) {
        const sku = this.skuFirst[i] + k;
        const sold = this.sales[sku - 1];
        skus.push([
          sku,
          id,
          count > 1 ? `规格:${values[k]}` : '',
          JSON.stringify(count > 1 ? [values[k]] : []),
          this.price[sku - 1],
          STOCK - sold,
          sold,
          '',
          k,
          0,
        ]);
      }
      if (products.length >= BATCH) {
        await h.insert('product', PRODUCT_COLUMNS, products.splice(0));
        await h.insert('product_sku', SKU_COLUMNS, skus.splice(0));
      }
    }
    if (products.length) await h.insert('product', PRODUCT_COLUMNS, products);
    if (skus.length) await h.insert('product_sku', SKU_COLUMNS, skus);
    return { products: this.scale.products, skus: this.skus, orders: this.j, ordersByStatus: { ...this.byStatus } };
  }
}
