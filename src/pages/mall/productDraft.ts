/** The product editor's state, its checks (the server's wording) and the two bodies it saves with. */
import type { Asset } from '../../../domain/assets';
import { ProductKind } from '../../../domain/mall';
import { MallMessages, type SpecDim } from '../../../domain/mallRules';
import { validateMoney } from '../../components/MoneyField';
import type { ProductInfoApiResponse } from '../../services/generated/product';
import { checkSkus, skuBody, type SkuDraft } from './skuTable';

export type ProductInfo = ProductInfoApiResponse;

export interface ProductDraft {
  name: string;
  kind: string;
  asset: Asset;
  cover: string;
  gallery: string[];
  detail: string;
  seedEnergy: string;
  seedDays: string;
  sort: string;
  dims: SpecDim[];
  rows: SkuDraft[];
}

export const EMPTY_DRAFT: ProductDraft = {
  name: '',
  kind: String(ProductKind.is.goods),
  asset: 'USDT',
  cover: '',
  gallery: [],
  detail: '',
  seedEnergy: '',
  seedDays: '',
  sort: '0',
  dims: [],
  rows: [{ values: [], price: '', stock: '', image: '' }],
};

export function draftOf(p: ProductInfo): ProductDraft {
  const seed = p.kind === ProductKind.is.seed;
  return {
    name: p.name,
    kind: String(p.kind),
    asset: p.asset as Asset,
    cover: p.cover,
    gallery: p.gallery,
    detail: p.detail,
    seedEnergy: seed ? p.seedEnergy : '',
    seedDays: seed ? String(p.seedDays) : '',
    sort: String(p.sort),
    dims: p.specs,
    rows: p.skus.length
      ? p.skus.map((s) => ({
          values: s.values,
          price: s.price,
          stock: String(s.stock),
          image: s.image,
          baseStock: s.stock,
        }))
      : EMPTY_DRAFT.rows,
  };
}

/** The rule of a seed product's 释放天数, as the server words it. */
export const SEED_DAYS_RULE = '释放天数为1-3650的整数';

/** The first problem of the draft, worded as the server words it; null when it can be saved. */
export function checkDraft(d: ProductDraft): string | null {
  const name = d.name.trim();
  if (!name) return MallMessages.nameRequired;
  if ([...name].length > 60) return '商品名称最多60个字';
  if (!d.cover) return MallMessages.coverRequired;
  if (Number(d.kind) === ProductKind.is.seed) {
    if (!d.seedEnergy.trim() || !d.seedDays.trim()) return MallMessages.seedTermsRequired;
    const energy = validateMoney(d.seedEnergy, 'ENERGY', '总能量');
    if (energy) return energy;
    if (!/^\d+$/.test(d.seedDays.trim()) || Number(d.seedDays) < 1 || Number(d.seedDays) > 3650) return SEED_DAYS_RULE;
  }
  if (!/^-?\d{1,9}$/.test(d.sort.trim())) return '排序为整数';
  return checkSkus(d.dims, d.rows, d.asset);
}

export function productBody(d: ProductDraft, id: number | undefined) {
  const seed = Number(d.kind) === ProductKind.is.seed;
  return {
    ...(id ? { id } : {}),
    name: d.name.trim(),
    kind: Number(d.kind) as 1 | 2,
    asset: d.asset,
    cover: d.cover,
    gallery: d.gallery,
    detail: d.detail,
    ...(seed ? { seedEnergy: d.seedEnergy.trim(), seedDays: Number(d.seedDays.trim()) } : {}),
    sort: Number(d.sort.trim()),
  };
}

export function skusBody(d: ProductDraft, productId: number) {
  return {
    productId,
    specs: d.dims.map((x) => ({ name: x.name.trim(), values: x.values })),
    skus: skuBody(d.rows),
  };
}
