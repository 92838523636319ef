/**
 * All SQL on products (their SKUs: ./skus.repository.ts). A product's price, stock and sales are read from its SKUs for the
 * rows of a page (lowest price, sums) — never kept on the product row, so buyers only ever write their
 * SKU's row. Locks on PostgreSQL are always taken product first, then SKUs (a buyer: product shared,
 * then its SKU; the set editor: product exclusive, then the SKUs), so the two never deadlock.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { dialectOf, forNoKeyUpdate, forShare } from '../../db/dialect';
import { keysetSlice, readKeysetPage, type KeysetPageRequest } from '../../db/keyset';
import { likePrefix, money } from '../../db/sql';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { bumpCatalog, countPerVersion } from './catalogVersion';

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

/**
 * The filter's exact total: product_stat without a name, else the products counted (thousands, not
 * millions), once per catalog version.
 */
async function countProducts(db: Db, f: ProductFilter): Promise<number> {
  if (f.name)
    return countPerVersion(db, [f.name, f.kind ?? null, f.status ?? null, f.asset ?? null], async () => {
      const r = await filtered(db, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    });
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
