/**
 * Demo mall (DOMAIN.md §4): products of both kinds with spec dimensions, SKUs, generated images (drawn
 * here with sharp from SVG shapes, stored through the upload store with their thumbnails, so they live
 * on disk or in S3 as uploads do) and a rich-text detail; then ~120 orders over the last 30 days in
 * every status, placed through the member-side buyProduct (bills 11) and handled through the manager's
 * optOrder (ship, complete, cancel with refund) and the auto-complete, so every movement has its bill
 * and every manager action its op-log row. The newest orders are left 待发货.
 */
import type { Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import { ExpressCompanies } from '../../../domain/mall';
import { specCombinations, type SpecDim } from '../../../domain/mallRules';
import { formatAsset, parseAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { AppError } from '../../errors';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { applyChange, balancesOf } from '../ledger/ledger.service';
import { storeGeneratedImage as storeImage } from '../uploads/uploads.service';
import { buyProduct, completeShippedOrders, optOrder } from './orders.service';
import { operateProducts, productInfo, saveProduct, saveSkus } from './products.service';
import { seededRandom as random } from '../../seed/random';

const DAY = 86_400_000;

/** A decimal text of `asset` in minor units (the demo's own constants: always valid). */
function minor(text: string, asset: Asset, allowZero = false): bigint {
  const r = parseAsset(text, asset, { allowZero });
  if (!r.ok) throw new Error(`demo price ${text} ${asset}: ${r.reason}`);
  return r.value;
}
const MIN = 60_000;

interface DemoProduct {
  name: string;
  kind: 1 | 2;
  asset: Asset;
  hue: number;
  shape: 'cup' | 'shirt' | 'circle' | 'box' | 'leaf';
  specs: SpecDim[];
  /** Base price (decimal text in the pay asset); a SKU adds its position × step. */
  price: string;
  step: string;
  stock: number;
  seed?: { energy: string; days: number };
  /** Left off shelf. */
  off?: boolean;
}

const PRODUCTS: DemoProduct[] = [
  {
    name: '不锈钢保温杯',
    kind: 1,
    asset: 'USDT',
    hue: 200,
    shape: 'cup',
    specs: [
      { name: '颜色', values: ['星空蓝', '樱花粉', '曜石黑'] },
      { name: '容量', values: ['350ml', '500ml'] },
    ],
    price: '19.9',
    step: '2',
    stock: 40,
  },
  {
    name: '纯棉运动T恤',
    kind: 1,
    asset: 'USDT',
    hue: 10,
    shape: 'shirt',
    specs: [
      { name: '颜色', values: ['白', '黑'] },
      { name: '尺码', values: ['S', 'M', 'L', 'XL'] },
    ],
    price: '29',
    step: '0',
    stock: 25,
  },
  {
    name: '蓝牙降噪耳机',
    kind: 1,
    asset: 'USDT',
    hue: 260,
    shape: 'circle',
    specs: [{ name: '颜色', values: ['石墨灰', '云母白'] }],
    price: '89',
    step: '10',
    stock: 30,
  },
  {
    name: '高山乌龙茶礼盒',
    kind: 1,
    asset: 'LZ',
    hue: 120,
    shape: 'box',
    specs: [],
    price: '680',
    step: '0',
    stock: 60,
  },
  {
    name: '东北五常大米',
    kind: 1,
    asset: 'LZ',
    hue: 45,
    shape: 'box',
    specs: [{ name: '规格', values: ['5kg', '10kg'] }],
    price: '320',
    step: '280',
    stock: 80,
  },
  {
    name: '车载手机支架',
    kind: 1,
    asset: 'USDT',
    hue: 330,
    shape: 'circle',
    specs: [],
    price: '9.9',
    step: '0',
    stock: 0,
    off: true,
  },
  {
    name: '能量种子·萌芽',
    kind: 2,
    asset: 'LZ',
    hue: 95,
    shape: 'leaf',
    specs: [],
    price: '100',
    step: '0',
    stock: 500,
    seed: { energy: '150', days: 30 },
  },
  {
    name: '能量种子·繁茂',
    kind: 2,
    asset: 'LZ',
    hue: 150,
    shape: 'leaf',
    specs: [],
    price: '500',
    step: '0',
    stock: 200,
    seed: { energy: '800', days: 60 },
  },
  {
    name: '能量种子·参天',
    kind: 2,
    asset: 'USDT',
    hue: 170,
    shape: 'leaf',
    specs: [],
    price: '50',
    step: '0',
    stock: 100,
    seed: { energy: '1500', days: 90 },
  },
];

const SHAPES: Record<DemoProduct['shape'], string> = {
  cup: '<rect x="200" y="150" width="200" height="300" rx="30" fill="#fff" opacity="0.92"/><rect x="200" y="190" width="200" height="40" fill="#000" opacity="0.12"/><path d="M400 220 h40 a40 40 0 0 1 0 120 h-40" stroke="#fff" stroke-width="22" fill="none"/>',
  shirt:
    '<path d="M220 140 L300 170 L380 140 L470 200 L430 270 L390 250 L390 460 L210 460 L210 250 L170 270 L130 200 Z" fill="#fff" opacity="0.92"/>',
  circle:
    '<circle cx="300" cy="300" r="150" fill="#fff" opacity="0.9"/><circle cx="300" cy="300" r="70" fill="#000" opacity="0.15"/>',
  box: '<rect x="150" y="200" width="300" height="230" rx="12" fill="#fff" opacity="0.92"/><rect x="130" y="170" width="340" height="60" rx="10" fill="#fff"/><rect x="285" y="170" width="30" height="260" fill="#000" opacity="0.15"/>',
  leaf: '<path d="M300 470 C160 380 170 200 300 120 C430 200 440 380 300 470 Z" fill="#fff" opacity="0.92"/><path d="M300 460 L300 170" stroke="#000" stroke-opacity="0.18" stroke-width="10"/>',
};

/** A 600×600 product image: a coloured gradient and the product's shape; `variant` shifts the colour. */
function productSvg(p: DemoProduct, variant: number): Buffer {
  const h = (p.hue + variant * 37) % 360;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${h},70%,62%)"/><stop offset="1" stop-color="hsl(${(h + 40) % 360},65%,42%)"/>
  </linearGradient></defs>
  <rect width="600" height="600" fill="url(#g)"/>${SHAPES[p.shape]}
</svg>`);
}

const detailOf = (p: DemoProduct, image: string) =>
  `<h2>${p.name}</h2><p>精选好物，平台直发。${p.kind === 2 ? `购买后立即获得种子，每日释放能量，共 ${p.seed?.days} 天。` : '下单后 48 小时内发货，支持七天无理由退换。'}</p>` +
  `<ul><li>正品保障</li><li>${p.kind === 2 ? '能量自动到账' : '全国包邮（偏远地区除外）'}</li></ul><p><img src="${image}" alt="${p.name}"></p>` +
  `<table><tbody><tr><th>支付币种</th><td>${p.asset}</td></tr><tr><th>规格</th><td>${p.specs.map((d) => d.name).join('、') || '默认'}</td></tr></tbody></table>`;

const RECEIVERS = [
  { name: '王芳', phone: '13812345678', address: '北京市朝阳区建国路88号SOHO现代城2号楼1203' },
  { name: '李强', phone: '13987654321', address: '上海市浦东新区世纪大道100号环球金融中心36层' },
  { name: '张敏', phone: '13711112222', address: '广东省深圳市南山区科技园南区高新南七道18号' },
  { name: '刘洋', phone: '13533334444', address: '浙江省杭州市西湖区文三路478号华星时代广场A座' },
  { name: '陈静', phone: '13655556666', address: '四川省成都市武侯区天府大道中段666号希顿国际广场' },
];

export async function seedMallDemo(ctx: Ctx, orders = 120, days = 30): Promise<void> {
  if (await ctx.db.selectFrom('product').select('id').limit(1).executeTakeFirst()) return;
  const admin = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  const members = await ctx.db
    .selectFrom('member')
    .select('id')
    .where('status', '=', 1)
    .orderBy('id')
    .limit(200)
    .execute();
  if (!admin || !members.length) return;
  const actor: Actor = { managerId: Number(admin.id), username: admin.username, ip: '127.0.0.1' };
  const end = ctx.clock.now();
  const start = end - days * DAY;
  const at = (time: number): Ctx => ({ ...ctx, clock: { now: () => time } });
  const rnd = random(20261125);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];

  const skus: Array<{ id: number; asset: Asset; kind: number; price: bigint }> = [];
  for (const [i, p] of PRODUCTS.entries()) {
    const cover = await storeImage(ctx, `demo/products/p${i + 1}-cover`, productSvg(p, 0));
    const gallery = [cover, await storeImage(ctx, `demo/products/p${i + 1}-g1`, productSvg(p, 2))];
    const made = at(start - DAY);
    const { id } = await saveProduct(made, actor, {
      name: p.name,
      kind: p.kind,
      asset: p.asset,
      cover,
      gallery,
      detail: detailOf(p, gallery[1]),
      sort: PRODUCTS.length - i,
      ...(p.seed ? { seedEnergy: p.seed.energy, seedDays: p.seed.days } : {}),
    });
    const rows = specCombinations(p.specs).map((values, k) => ({
      values,
      price: formatAsset(minor(p.price, p.asset) + BigInt(k) * minor(p.step, p.asset, true), p.asset),
      stock: p.stock,
      image: '',
    }));
    await saveSkus(made, actor, { productId: id, specs: p.specs, skus: rows });
    if (!p.off) await operateProducts(made, actor, { ids: [id], action: 'onShelf' });
    for (const s of (await productInfo(ctx, id)).skus)
      if (!p.off) skus.push({ id: s.id, asset: p.asset, kind: p.kind, price: minor(s.price, p.asset) });
  }

  const step = (days * DAY) / orders;
  for (let n = 0; n < orders; n += 1) {
    const t = Math.floor(start + n * step + rnd() * step * 0.5);
    const sku = pick(skus);
    const memberId = Number(pick(members).id);
    const quantity = rnd() < 0.8 ? 1 : 2;
    try {
      const need = sku.price * BigInt(quantity);
      if ((await balancesOf(ctx.db, memberId))[sku.asset].available < need)
        await ctx.db.transaction().execute((trx) =>
          applyChange(
            trx,
            {
              memberId,
              asset: sku.asset,
              available: need * 2n,
              type: BillType.adminAdjust,
              remark: '演示数据：商城购物余额',
            },
            t - MIN,
          ),
        );
      const o = await buyProduct(at(t), { memberId, skuId: sku.id, quantity, receiver: pick(RECEIVERS) });
      if (sku.kind === 2) continue;
      const age = (end - t) / DAY;
      if (age < 2) continue; // the newest wait to be shipped
      const fate = rnd();
      if (fate < 0.12) {
        await optOrder(at(t + 3 * 3600_000), actor, {
          id: o.id,
          action: 'cancel',
          remark: pick(['会员申请取消', '缺货，联系会员后取消', '收货地址无法配送']),
        });
        continue;
      }
      const shippedAt = t + (6 + Math.floor(rnd() * 30)) * 3600_000;
      await optOrder(at(shippedAt), actor, {
        id: o.id,
        action: 'ship',
        expressCompany: pick(ExpressCompanies),
        trackingNo: `${pick(['SF', 'ZT', 'YT', 'YD', 'JT'])}${String(Math.floor(rnd() * 1e12)).padStart(12, '0')}`,
      });
      if (fate < 0.5 && age > 4) await optOrder(at(shippedAt + 2 * DAY), actor, { id: o.id, action: 'complete' });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  // Shipped more than the setting's days ago: completed by the job, as on a running platform.
  await completeShippedOrders(ctx, end);
}
