/**
 * All SQL on a product's SKUs: its set as the editor reads and replaces it, and a SKU as buyers take it
 * (stock by conditional UPDATE, never below zero) and cancelled orders give it back. Lock order as in
 * ./products.repository.ts: the product first, then its SKUs.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface SkuRowData {
  id: number;
  spec: string;
  spec_values: string;
  price: string;
  stock: string;
  sales: string;
  image: string;
  deleted: number;
}

/** A product's SKUs (the current set, or all with `withDeleted`), in the editor's order. */
export async function skusOf(db: Db, productId: number, withDeleted = false): Promise<SkuRowData[]> {
  let q = db
    .selectFrom('product_sku')
    .select([
      'id',
      'spec',
      'spec_values',
      money('price').as('price'),
      money('stock').as('stock'),
      money('sales').as('sales'),
      'image',
      'deleted',
    ])
    .where('product_id', '=', productId);
  if (!withDeleted) q = q.where('deleted', '=', 0);
  return (await q.orderBy('position').orderBy('id').execute()) as SkuRowData[];
}

export interface SkuWrite {
  id?: number;
  spec: string;
  values: string[];
  price: bigint;
  /** The stock as typed. */
  stock: bigint;
  /**
   * The stock the editor loaded for this row: a live SKU of the same spec then changes by
   * stock − baseStock (sales made meanwhile are kept). A new or revived row takes `stock` as typed.
   */
  baseStock?: bigint;
  image: string;
  position: number;
}

/**
 * Writes a product's new set: each row by its spec (an existing or once-deleted row updated, a new one
 * inserted), every other row marked deleted with its stock cleared. Returns false when a stock change
 * by difference would go below zero (the caller refuses the whole set).
 */
export async function replaceSkus(trx: Db, productId: number, rows: SkuWrite[]): Promise<boolean> {
  const existing = await skusOf(trx, productId, true);
  const bySpec = new Map(existing.map((s) => [s.spec, s]));
  const kept = new Set<number>();
  for (const r of rows) {
    const old = bySpec.get(r.spec);
    if (old) {
      kept.add(Number(old.id));
      const byDifference = r.baseStock !== undefined && !old.deleted;
      const stock = byDifference ? sql<string>`stock + ${r.stock - r.baseStock!}` : sql<string>`${r.stock}`;
      const done = await trx
        .updateTable('product_sku')
        .set({
          spec_values: JSON.stringify(r.values),
          price: r.price,
          stock,
          image: r.image,
          position: r.position,
          deleted: 0,
        })
        .where('id', '=', Number(old.id))
        .where(sql<boolean>`${stock} >= 0`)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return false;
    } else {
      await trx
        .insertInto('product_sku')
        .values({
          product_id: productId,
          spec: r.spec,
          spec_values: JSON.stringify(r.values),
          price: r.price,
          stock: r.stock,
          image: r.image,
          position: r.position,
        })
        .execute();
    }
  }
  const gone = existing.filter((s) => !s.deleted && !kept.has(Number(s.id))).map((s) => Number(s.id));
  if (gone.length)
    await trx.updateTable('product_sku').set({ deleted: 1, stock: 0n }).where('id', 'in', gone).execute();
  return true;
}

/**
 * A product's pay asset changed: its SKU prices keep the amount they show (12.5 USDT → 12.5 LZ), in the
 * new asset's minor units — places the new asset lacks are cut (never below one minor unit), and a
 * price past the new asset's ceiling is held at it.
 */
export async function rescaleSkuPrices(
  trx: Db,
  productId: number,
  fromDecimals: number,
  toDecimals: number,
  ceiling: bigint,
) {
  if (fromDecimals === toDecimals) return;
  const f = 10n ** BigInt(Math.abs(toDecimals - fromDecimals));
  const price =
    toDecimals > fromDecimals
      ? sql<string>`case when price > ${ceiling / f} then ${ceiling} else price * ${f} end`
      : sql<string>`case when price < ${f} then 1 else price / ${f} end`;
  await trx.updateTable('product_sku').set({ price }).where('product_id', '=', productId).execute();
}

/** The product a SKU belongs to (a SKU never moves to another product), undefined when there is no such SKU. */
export async function productOfSku(db: Db, skuId: number): Promise<number | undefined> {
  const r = await db.selectFrom('product_sku').select('product_id').where('id', '=', skuId).executeTakeFirst();
  return r && Number(r.product_id);
}

/** A SKU of the current set as a buyer takes it (after the product's share lock). */
export async function skuForSale(trx: Db, skuId: number) {
  return trx
    .selectFrom('product_sku')
    .select(['id', 'product_id', 'spec', money('price').as('price'), 'image', 'deleted'])
    .where('id', '=', skuId)
    .executeTakeFirst();
}

/** Takes `quantity` from a SKU's stock if it has them (never below zero): false when it has not. */
export async function takeStock(trx: Db, skuId: number, quantity: number): Promise<boolean> {
  const r = await trx
    .updateTable('product_sku')
    .set({ stock: sql`stock - ${quantity}`, sales: sql`sales + ${quantity}` })
    .where('id', '=', skuId)
    .where('deleted', '=', 0)
    .where(sql<boolean>`stock >= ${quantity}`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Puts a cancelled order's quantity back (a deleted SKU takes it back to sales only). */
export async function returnStock(trx: Db, skuId: number, quantity: number): Promise<void> {
  await trx
    .updateTable('product_sku')
    .set({
      stock: sql`case when deleted = 0 then stock + ${quantity} else stock end`,
      sales: sql`sales - ${quantity}`,
    })
    .where('id', '=', skuId)
    .execute();
}
