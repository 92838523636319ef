/**
 * All SQL on products and their SKUs. A product's price, stock and sales are read from its SKUs for the
 * rows of a page (lowest price, sums) — never kept on the product row, so buyers only ever write their
 * SKU's row. Locks on PostgreSQL are always taken product first, then SKUs (a buyer: product shared,
 * then its SKU; the set editor: product exclusive, then the SKUs), so the two never deadlock.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { dialectOf, forNoKeyUpdate, forShare } from '../../db/dialect';
import { keysetSlice, readKeysetPage, type KeysetPageRequest } from '../../db/keyset';
import { likePrefix, money } from '../../db/sql';
import { counter, counterViolations, readCounter, rebuildCounter, type CounterMoves } from '../../db/counters';

type Db = Kysely<Database> | Transaction<Database>;

export interface ProductFilter {
  name?: string;
  kind?: number;
  status?: number;
  asset?: string;
}

/**
 * A name keyword the trigram index answers: 3 characters (code points) or more — a trigram index has
 * nothing to look up for fewer — and no NUL (which would end the FTS5 query early).
 */
export const trigramKeyword = (name: string) => [...name].length >= 3 && !name.includes('\0');

/** `text` as an FTS5 string literal: one phrase, i.e. its trigrams in a row (a substring of the name). */
export const ftsString = (text: string) => `"${text.replace(/"/g, '""')}"`;

function filtered(db: Db, f: ProductFilter) {
  let q = db.selectFrom('product as p').where('p.deleted_at', 'is', null);
  if (f.name) {
    // The LIKE decides on both databases (PostgreSQL's pg_trgm GIN index serves it as it is); on SQLite
    // the FTS5 trigram table gives the candidates first, a superset of the LIKE's rows (it folds case
    // beyond ASCII), so the answer is the LIKE's exactly.
    if (dialectOf(db as unknown as Kysely<unknown>) === 'sqlite' && trigramKeyword(f.name))
      q = q.where(
        sql<boolean>`p.id in (select rowid from product_name_fts where product_name_fts match ${ftsString(f.name)})`,
      );
    q = q.where(sql<boolean>`p.name like ${`%${likePrefix(f.name)}`} escape '\\'`);
  }
  if (f.kind !== undefined) q = q.where('p.kind', '=', f.kind);
  if (f.status !== undefined) q = q.where('p.status', '=', f.status);
  if (f.asset !== undefined) q = q.where('p.asset', '=', f.asset);
  return q;
}

const PRODUCT_COLUMNS = [
  'id',
  'name',
  'kind',
  'asset',
  'cover',
  'seed_days',
  'sort',
  'status',
  'created_at',
  'updated_at',
  'updated_by',
] as const;

export interface ProductPageRow {
  id: number;
  name: string;
  kind: number;
  asset: string;
  cover: string;
  seed_energy: string;
  seed_days: number;
  sort: number;
  status: number;
  created_at: number;
  updated_at: number;
  updated_by: string;
  price: string | null;
  stock: string | null;
  sales: string | null;
  sku_count: number;
}

/** The SKU figures of the products of a page: lowest price and stock over the current set, sales over all. */
function withSkuFigures(db: Db, slice: ReturnType<typeof keysetSlice>) {
  const live = (col: string, fn: 'min' | 'sum') =>
    sql<
      string | null
    >`(select cast(${sql.raw(fn)}(s.${sql.ref(col)}) as text) from product_sku s where s.product_id = p.id and s.deleted = 0)`;
  return (db as Kysely<any>)
    .selectFrom(slice.as('p'))
    .selectAll('p')
    .select([
      live('price', 'min').as('price'),
      live('stock', 'sum').as('stock'),
      sql<string | null>`(select cast(sum(s.sales) as text) from product_sku s where s.product_id = p.id)`.as('sales'),
      sql<number>`(select count(*) from product_sku s where s.product_id = p.id and s.deleted = 0)`.as('sku_count'),
    ])
    .$castTo<ProductPageRow>();
}

/**
 * product_stat: products per status (−1 for a deleted one), kind and pay asset — the list's total
 * without a name filter. Moved by the service with every create, kind/asset edit, shelf move and delete
 * (each under the product's row lock).
 */
const PRODUCT_STAT = counter({
  table: 'product_stat',
  source: 'product',
  keys: ['status', 'kind', 'asset'],
  keyOf: { status: 'case when deleted_at is null then status else -1 end' },
  sums: {},
});

export interface ProductKey {
  status: number;
  kind: number;
  asset: string;
}

/** Queues the move of one product in product_stat from `from` (null: new) to `to`. */
export function moveProductStat(db: Db, counts: CounterMoves, from: ProductKey | null, to: ProductKey): void {
  counts.move(db, PRODUCT_STAT, from, to, {});
}

export const rebuildProductStats = (db: Db) => rebuildCounter(db, PRODUCT_STAT);
export const productStatViolations = (db: Db) => counterViolations<string, string>(db, PRODUCT_STAT);

/** Moves the catalog's version (catalog_version): call in the transaction of every product write. */
async function bumpCatalog(trx: Db): Promise<void> {
  await trx
    .updateTable('catalog_version')
    .set((eb) => ({ v: eb('v', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** Name searches' exact counts kept per catalog version (one map per database handle), oldest out first. */
const nameCounts = new WeakMap<object, Map<string, number>>();
const NAME_COUNTS_KEPT = 500;

/**
 * A name search's exact total, counted once per catalog version. The version is read before the count:
 * a write committed in between makes the count newer than its version, never older, and that version is
 * already past (the next request reads the new one), so a kept count is never stale.
 */
async function countByName(db: Db, f: ProductFilter): Promise<number> {
  const row = await db.selectFrom('catalog_version').select('v').where('id', '=', 1).executeTakeFirst();
  const key = JSON.stringify([Number(row?.v ?? 0), f.name, f.kind ?? null, f.status ?? null, f.asset ?? null]);
  let kept = nameCounts.get(db);
  if (!kept) nameCounts.set(db, (kept = new Map()));
  const hit = kept.get(key);
  if (hit !== undefined) return hit;
  const r = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(r.n);
  if (kept.size >= NAME_COUNTS_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, n);
  return n;
}

/**
 * The filter's exact total: product_stat without a name, else the products counted (thousands, not
 * millions), once per catalog version.
 */
async function countProducts(db: Db, f: ProductFilter): Promise<number> {
  if (f.name) return countByName(db, f);
  const r = await readCounter(db, PRODUCT_STAT, { status: f.status ?? [0, 1], kind: f.kind, asset: f.asset });
  return r.n;
}

/** A page of products and the filter's exact total. */
export async function findProducts(db: Db, f: ProductFilter, page: KeysetPageRequest, sort: 'id' | 'sort') {
  const slice = keysetSlice(
    filtered(db, f).select([
      ...PRODUCT_COLUMNS.map((c) => `p.${c}` as const),
      money('p.seed_energy').as('seed_energy'),
    ]),
    page,
    { sort: `p.${sort}`, id: 'p.id', afterLookup: false },
  );
  const [paged, total] = await Promise.all([
    readKeysetPage(withSkuFigures(db, slice), page, sort),
    countProducts(db, f),
  ]);
  return { ...paged, total };
}

/** One product (not deleted) with its SKU figures. */
export async function productById(db: Db, id: number) {
  const slice = filtered(db, {})
    .where('p.id', '=', id)
    .select([
      ...PRODUCT_COLUMNS.map((c) => `p.${c}` as const),
      money('p.seed_energy').as('seed_energy'),
      'p.gallery',
      'p.detail',
      'p.specs',
    ]);
  return (await withSkuFigures(db, slice as never).executeTakeFirst()) as
    (ProductPageRow & { gallery: string; detail: string; specs: string }) | undefined;
}

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

export interface ProductValues {
  name: string;
  kind: number;
  asset: string;
  cover: string;
  gallery: string;
  detail: string;
  seed_energy: bigint;
  seed_days: number;
  sort: number;
}

export async function insertProduct(db: Db, v: ProductValues, now: number, by: string): Promise<number> {
  const r = await db
    .insertInto('product')
    .values({ ...v, status: 0, created_at: now, updated_at: now, updated_by: by })
    .returning('id')
    .executeTakeFirstOrThrow();
  await bumpCatalog(db);
  return Number(r.id);
}

/** The product's row for a change: row-locked on PostgreSQL (taken before any of its SKUs). */
export async function lockProduct(trx: Db, id: number) {
  const q = trx
    .selectFrom('product')
    .select([
      'id',
      'name',
      'kind',
      'asset',
      'status',
      'specs',
      'deleted_at',
      money('seed_energy').as('seed_energy'),
      'seed_days',
    ])
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return forNoKeyUpdate(q, trx as unknown as Kysely<unknown>).executeTakeFirst();
}

/**
 * The product as a buyer needs it, share-locked on PostgreSQL: taking it off shelf or deleting it waits
 * for the purchases under way, and a purchase after it sees the new status.
 */
export async function shareProduct(trx: Db, id: number) {
  const q = trx
    .selectFrom('product')
    .select(['id', 'name', 'kind', 'asset', 'status', 'cover', money('seed_energy').as('seed_energy'), 'seed_days'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return forShare(q, trx as unknown as Kysely<unknown>).executeTakeFirst();
}

export async function updateProduct(
  trx: Db,
  id: number,
  v: Partial<ProductValues & { specs: string }>,
  now: number,
  by: string,
) {
  await trx
    .updateTable('product')
    .set({ ...v, updated_at: now, updated_by: by })
    .where('id', '=', id)
    .execute();
  await bumpCatalog(trx);
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

/** Shelf moves as one conditional UPDATE: on shelf only with a SKU in stock. */
export async function moveShelf(trx: Db, id: number, to: 0 | 1, now: number, by: string): Promise<boolean> {
  let q = trx
    .updateTable('product')
    .set({ status: to, updated_at: now, updated_by: by })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '=', to === 1 ? 0 : 1);
  if (to === 1)
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('product_sku as s')
          .select('s.id')
          .whereRef('s.product_id', '=', 'product.id')
          .where('s.deleted', '=', 0)
          .where(sql<boolean>`s.stock > 0`),
      ),
    );
  const moved = Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
  if (moved) await bumpCatalog(trx);
  return moved;
}

/**
 * Deletes (keeps the row, marked) an off-shelf product without unfinished orders (order_product_stat:
 * purchases in flight hold the product's share lock, so their counts are committed before this runs).
 */
export async function markDeleted(trx: Db, id: number, now: number, by: string): Promise<boolean> {
  const r = await trx
    .updateTable('product')
    .set({ deleted_at: now, updated_at: now, updated_by: by })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('order_product_stat as c')
            .select('c.n')
            .whereRef('c.product_id', '=', 'product.id')
            .where('c.status', 'in', [1, 2])
            .where('c.n', '>', 0),
        ),
      ),
    )
    .executeTakeFirst();
  const deleted = Number(r.numUpdatedRows) > 0;
  if (deleted) await bumpCatalog(trx);
  return deleted;
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
