/**
 * The SKU table's logic, apart from its view: rows generated from the spec dimensions (every
 * combination, first dimension slowest, as the server checks them), what was typed in a row kept when
 * the dimensions change, bulk fill, and the checks the server makes, with its wording.
 */
import type { Asset } from '../../../domain/assets';
import { MallMessages, SkuLimits, specCombinations, type SpecDim } from '../../../domain/mallRules';
import { validateMoney } from '../../components/MoneyField';

export interface SkuDraft {
  values: string[];
  price: string;
  stock: string;
  image: string;
  /** The stock as loaded (an existing SKU): the save sends it so sales made meanwhile are kept. */
  baseStock?: number;
}

const keyOf = (values: readonly string[]) => JSON.stringify(values);

/** The rows of `dims`, each keeping what an old row of the same values held (a new one starts empty). */
export function regenerate(dims: readonly SpecDim[], old: readonly SkuDraft[]): SkuDraft[] {
  const byKey = new Map(old.map((r) => [keyOf(r.values), r]));
  const usable = dims.filter((d) => d.name.trim() && d.values.length);
  return specCombinations(usable).map(
    (values) => byKey.get(keyOf(values)) ?? { values, price: '', stock: '', image: '' },
  );
}

/** Every row with the given price and/or stock (a blank one leaves that column alone). */
export function bulkFill(rows: readonly SkuDraft[], price: string, stock: string): SkuDraft[] {
  return rows.map((r) => ({
    ...r,
    ...(price.trim() ? { price: price.trim() } : {}),
    ...(stock.trim() ? { stock: stock.trim() } : {}),
  }));
}

export function validateStock(text: string): string | null {
  const t = text.trim();
  if (!t) return '库存不能为空';
  if (!/^\d+$/.test(t) || Number(t) > SkuLimits.stock) return `库存为0-${SkuLimits.stock}的整数`;
  return null;
}

/** The first problem of the dimensions and rows, worded as the server words it; null when none. */
export function checkSkus(dims: readonly SpecDim[], rows: readonly SkuDraft[], asset: Asset): string | null {
  const names = new Set<string>();
  for (const d of dims) {
    const name = d.name.trim();
    if (!name) return MallMessages.dimNameRequired;
    if (names.has(name)) return MallMessages.dimNameRepeated;
    names.add(name);
    if (!d.values.length) return MallMessages.dimValuesRequired;
  }
  if (!rows.length) return '请至少设置一个规格';
  if (rows.length > SkuLimits.skus) return MallMessages.tooManySkus;
  for (const [i, r] of rows.entries()) {
    const price = validateMoney(r.price, asset, `第${i + 1}行价格`);
    if (price) return price;
    const stock = validateStock(r.stock);
    if (stock) return `第${i + 1}行${stock}`;
  }
  return null;
}

/** The rows as product/sku takes them. */
export function skuBody(rows: readonly SkuDraft[]) {
  return rows.map((r) => ({
    values: r.values,
    price: r.price.trim(),
    stock: Number(r.stock.trim()),
    image: r.image,
    ...(r.baseStock !== undefined ? { baseStock: r.baseStock } : {}),
  }));
}
