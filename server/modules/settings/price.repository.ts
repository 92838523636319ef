/** All SQL on the LZ price: every change a row (lz_price), the newest the price now. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface PriceRow {
  price: string;
  created_at: number;
  created_by: string;
}

const COLUMNS = [money('price').as('price'), 'created_at', 'created_by'] as const;

/** The price in effect at `at` (the newest change at or before it). */
export async function priceAt(db: Db, at: number): Promise<PriceRow | undefined> {
  return (await db
    .selectFrom('lz_price')
    .select(COLUMNS)
    .where('created_at', '<=', at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as PriceRow | undefined;
}

/** The changes after `from` up to `to`, oldest first. */
export async function priceChanges(db: Db, from: number, to: number): Promise<PriceRow[]> {
  return (await db
    .selectFrom('lz_price')
    .select(COLUMNS)
    .where('created_at', '>', from)
    .where('created_at', '<=', to)
    .orderBy('created_at')
    .orderBy('id')
    .execute()) as PriceRow[];
}

export async function insertPrice(db: Db, price: bigint, by: string, now: number): Promise<void> {
  await db
    .insertInto('lz_price')
    .values({ price, created_at: now, created_by: by.slice(0, 64) })
    .execute();
}
