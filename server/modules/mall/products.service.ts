/**
 * Products (DOMAIN.md §3 Mall): the list with price, stock and sales derived from the SKUs, one product
 * with its set, the editor's save, the SKU set's replacement and the shelf/delete batch. Every change is
 * a managerAction (its op-log row in the same transaction).
 */
import type { Static } from '@sinclair/typebox';
import { assetDecimals, type Asset } from '../../../domain/assets';
import {
  ProductKind,
  ProductOperations,
  ProductStatus,
  type ProductKind as Kind,
  type ProductStatus as Status,
} from '../../../domain/mall';
import { MallMessages, SkuLimits, specCombinations, specText, type SpecDim } from '../../../domain/mallRules';
import { AssetCeiling, formatAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { pageOf } from '../../db/keyset';
import { badInput, conflict, notFound } from '../../errors';
import { amountOf } from '../../http/amounts';
import { sanitizeRichText } from '../../http/richText';
import { changed, changeList, managerAction, runBatch } from '../oplog/managerAction';
import {
  findProducts,
  insertProduct,
  lockProduct,
  markDeleted,
  moveProductStat,
  moveShelf,
  productById,
  updateProduct,
  type ProductPageRow,
} from './products.repository';
import { replaceSkus, rescaleSkuPrices, skusOf, type SkuWrite } from './skus.repository';
import { productOrderCounts } from './orders.repository';
import type { ProductBody, ProductListQuery, ProductOperateBody, SkuBody } from './products.schema';

const int = (v: string | number | null) => Number(v ?? 0);

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function productView(r: ProductPageRow) {
  const asset = r.asset as Asset;
  return {
    id: Number(r.id),
    name: r.name,
    kind: r.kind as Kind,
    asset,
    cover: r.cover,
    price: formatAsset(r.price ?? '0', asset),
    stock: int(r.stock),
    sales: int(r.sales),
    skuCount: Number(r.sku_count),
    seedEnergy: formatAsset(r.seed_energy, 'ENERGY'),
    seedDays: Number(r.seed_days),
    sort: Number(r.sort),
    status: r.status as Status,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    updatedBy: r.updated_by,
  };
}

export type ProductListInput = Static<typeof ProductListQuery>;

export async function listProducts(ctx: Ctx, q: ProductListInput) {
  const { page, size, offset, keyset } = pageOf(q);
  const name = q.name?.trim();
  const found = await findProducts(
    ctx.db,
    { name: name || undefined, kind: q.kind, status: q.status, asset: q.asset },
    { offset, limit: size, order: q.order ?? 'desc', keyset },
    q.sort ?? 'id',
  );
  return { list: found.rows.map(productView), total: found.total, page, size, next: found.next, prev: found.prev };
}

export async function productInfo(ctx: Ctx, productId: number) {
  const r = await productById(ctx.db, productId);
  if (!r) throw notFound(MallMessages.productNotFound);
  const asset = r.asset as Asset;
  const [skus, orders] = await Promise.all([skusOf(ctx.db, productId), productOrderCounts(ctx.db, productId)]);
  return {
    ...productView(r),
    gallery: parseJson<string[]>(r.gallery, []),
    detail: r.detail,
    specs: parseJson<SpecDim[]>(r.specs, []),
    skus: skus.map((s) => ({
      id: Number(s.id),
      values: parseJson<string[]>(s.spec_values, []),
      spec: s.spec,
      price: formatAsset(s.price, asset),
      stock: int(s.stock),
      sales: int(s.sales),
      image: s.image,
    })),
    openOrders: orders.open,
    orders: orders.all,
  };
}

// ---- the editor ----

export type ProductInput = Static<typeof ProductBody>;

function productValues(input: ProductInput) {
  const name = input.name.trim();
  if (!name) throw badInput(MallMessages.nameRequired);
  if (!input.cover) throw badInput(MallMessages.coverRequired);
  const seed = input.kind === ProductKind.is.seed;
  if (seed && (!input.seedEnergy || !input.seedDays)) throw badInput(MallMessages.seedTermsRequired);
  return {
    name,
    kind: input.kind,
    asset: input.asset,
    cover: input.cover,
    gallery: JSON.stringify(input.gallery.filter(Boolean)),
    detail: sanitizeRichText(input.detail),
    seed_energy: seed ? amountOf(input.seedEnergy ?? '', 'ENERGY', '总能量') : 0n,
    seed_days: seed ? (input.seedDays ?? 0) : 0,
    sort: input.sort,
  };
}

/** Creates a product (下架, no SKUs yet) or updates one; kind and pay asset are fixed once it has orders. */
export async function saveProduct(ctx: Ctx, actor: Actor, input: ProductInput) {
  const v = productValues(input);
  const id = input.id;
  return managerAction(ctx, actor, async ({ trx, now, counts }) => {
    if (id === undefined) {
      const made = await insertProduct(trx, v, now, actor.username);
      moveProductStat(trx, counts, null, { status: ProductStatus.is.off, kind: v.kind, asset: v.asset });
      return {
        result: { id: made },
        log: { code: 'product:edit', target: `product#${made}`, summary: `新增商品 #${made}「${v.name}」` },
      };
    }
    const old = await lockProduct(trx, id);
    if (!old) throw notFound(MallMessages.productNotFound);
    if ((old.kind !== v.kind || old.asset !== v.asset) && (await productOrderCounts(trx, id)).all > 0)
      throw badInput(MallMessages.kindLocked);
    await updateProduct(trx, id, v, now, actor.username);
    if (old.kind !== v.kind || old.asset !== v.asset)
      moveProductStat(trx, counts, old, { status: old.status, kind: v.kind, asset: v.asset });
    if (old.asset !== v.asset)
      await rescaleSkuPrices(trx, id, assetDecimals(old.asset as Asset), assetDecimals(v.asset), AssetCeiling[v.asset]);
    const summary = changeList(
      [
        changed('名称', old.name, v.name),
        changed('类型', ProductKind.label(old.kind), ProductKind.label(v.kind)),
        changed('币种', old.asset, v.asset),
        changed('总能量', formatAsset(old.seed_energy, 'ENERGY'), formatAsset(v.seed_energy, 'ENERGY')),
        changed('释放天数', String(old.seed_days), String(v.seed_days)),
      ],
      '：图片、详情或排序',
    );
    return {
      result: { id },
      log: { code: 'product:edit', target: `product#${id}`, summary: `编辑商品 #${id}${summary}` },
    };
  });
}

export type SkuInput = Static<typeof SkuBody>;

/** The dimensions checked (names and values trimmed, unique) and the rows matched to their combinations. */
function checkedSet(input: SkuInput, asset: Asset): { dims: SpecDim[]; rows: SkuWrite[] } {
  const dims = input.specs.map((d) => ({ name: d.name.trim(), values: d.values.map((v) => v.trim()) }));
  if (dims.length > SkuLimits.dims) throw badInput(MallMessages.tooManyDims);
  const names = new Set<string>();
  for (const d of dims) {
    if (!d.name) throw badInput(MallMessages.dimNameRequired);
    if (names.has(d.name)) throw badInput(MallMessages.dimNameRepeated);
    names.add(d.name);
    if (!d.values.length) throw badInput(MallMessages.dimValuesRequired);
    if (d.values.length > SkuLimits.values) throw badInput(MallMessages.tooManyValues);
    if (d.values.some((v) => !v)) throw badInput(MallMessages.dimValueRequired);
    if (new Set(d.values).size !== d.values.length) throw badInput(MallMessages.dimValueRepeated);
    if ([d.name, ...d.values].some((t) => /[:,]/.test(t))) throw badInput('规格名和规格值不能包含冒号或逗号');
  }
  const combos = specCombinations(dims);
  if (combos.length > SkuLimits.skus) throw badInput(MallMessages.tooManySkus);
  const wanted = new Map(combos.map((c, i) => [JSON.stringify(c), i]));
  const seen = new Set<string>();
  const rows = input.skus.map((s, i) => {
    const values = s.values.map((v) => v.trim());
    const key = JSON.stringify(values);
    if (!wanted.has(key) || seen.has(key)) throw badInput(MallMessages.skusMismatch);
    seen.add(key);
    const price = amountOf(s.price, asset, `第${i + 1}行价格`);
    return {
      spec: specText(dims, values),
      values,
      price,
      stock: BigInt(s.stock),
      baseStock: s.baseStock === undefined ? undefined : BigInt(s.baseStock),
      image: s.image,
      position: wanted.get(key) ?? i,
    };
  });
  if (seen.size !== combos.length) throw badInput(MallMessages.skusMismatch);
  return { dims, rows };
}

/** Replaces a product's SKU set (and its dimensions): see replaceSkus for rows kept, added and removed. */
export async function saveSkus(ctx: Ctx, actor: Actor, input: SkuInput) {
  const id = input.productId;
  return managerAction(ctx, actor, async ({ trx, now }) => {
    const product = await lockProduct(trx, id);
    if (!product) throw notFound(MallMessages.productNotFound);
    const { dims, rows } = checkedSet(input, product.asset as Asset);
    if (!(await replaceSkus(trx, id, rows))) throw conflict(MallMessages.stockChanged);
    await updateProduct(trx, id, { specs: JSON.stringify(dims) }, now, actor.username);
    const stock = (await skusOf(trx, id)).reduce((n, s) => n + Number(s.stock), 0);
    return {
      result: null,
      log: {
        code: 'product:edit',
        target: `product#${id}`,
        summary: `设置商品 #${id}「${product.name}」规格：${rows.length}个规格，总库存 ${stock}`,
      },
    };
  });
}

// ---- shelf and delete ----

export type ProductOperateInput = Static<typeof ProductOperateBody>;

/** One action per product, answered per id (a refusal of one never undoes another). */
export async function operateProducts(ctx: Ctx, actor: Actor, input: ProductOperateInput) {
  const label = ProductOperations[input.action];
  return runBatch(ctx, input.ids, (id) =>
    managerAction(ctx, actor, async ({ trx, now, counts }) => {
      const product = await lockProduct(trx, id);
      if (!product) throw notFound(MallMessages.productNotFound);
      let done: boolean;
      if (input.action === 'delete') {
        if (product.status === ProductStatus.is.on) throw conflict(MallMessages.deleteOnShelf);
        done = await markDeleted(trx, id, now, actor.username);
        if (!done && (await productOrderCounts(trx, id)).open > 0) throw conflict(MallMessages.hasOpenOrders);
      } else {
        const to = input.action === 'onShelf' ? ProductStatus.is.on : ProductStatus.is.off;
        done = await moveShelf(trx, id, to, now, actor.username);
        if (!done && to === ProductStatus.is.on && product.status === ProductStatus.is.off)
          throw conflict(MallMessages.noStock);
      }
      if (!done) throw conflict(MallMessages.productHandled);
      const to = { delete: -1, onShelf: ProductStatus.is.on, offShelf: ProductStatus.is.off }[input.action];
      moveProductStat(trx, counts, product, { status: to, kind: product.kind, asset: product.asset });
      return {
        result: null,
        log: { code: 'product:operate', target: `product#${id}`, summary: `${label}商品 #${id}「${product.name}」` },
      };
    }),
  );
}
