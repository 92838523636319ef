/** All SQL on pledge modes (质押设置): a handful of rows, each named by the records that use it. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { forUpdate } from '../../db/dialect';
import { money } from '../../db/sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface ModeRow {
  id: number;
  name: string;
  days: number;
  rate: string;
  min_amount: string;
  max_amount: string;
  status: number;
  sort: number;
  created_at: number;
  updated_at: number;
}

const MODE_COLUMNS = [
  'id',
  'name',
  'days',
  money('rate').as('rate'),
  money('min_amount').as('min_amount'),
  money('max_amount').as('max_amount'),
  'status',
  'sort',
  'created_at',
  'updated_at',
] as const;

/** Every mode, by sort then id, with the number of its pledges in use (status 1, from pledge_stat). */
export async function listModes(db: Db): Promise<Array<ModeRow & { in_use: number | string }>> {
  const rows = await db
    .selectFrom('pledge_mode as pm')
    .leftJoin('pledge_stat as s', (j) => j.onRef('s.mode_id', '=', 'pm.id').on('s.status', '=', 1))
    .select([
      'pm.id',
      'pm.name',
      'pm.days',
      money('pm.rate').as('rate'),
      money('pm.min_amount').as('min_amount'),
      money('pm.max_amount').as('max_amount'),
      'pm.status',
      'pm.sort',
      'pm.created_at',
      'pm.updated_at',
      sql<number>`coalesce(s.n, 0)`.as('in_use'),
    ])
    .orderBy('pm.sort')
    .orderBy('pm.id')
    .execute();
  return rows as unknown as Array<ModeRow & { in_use: number | string }>;
}

/** One mode; `lock`: row-locked on PostgreSQL (an edit reads what it replaces under the lock). */
export async function findMode(db: Db, id: number, lock = false): Promise<ModeRow | undefined> {
  const q = db.selectFrom('pledge_mode').select(MODE_COLUMNS).where('id', '=', id);
  const row = await (lock ? forUpdate(q, db as unknown as Kysely<unknown>) : q).executeTakeFirst();
  return row as unknown as ModeRow | undefined;
}

/** The id of the mode named `name` other than `exceptId`. */
export async function modeNamed(db: Db, name: string, exceptId?: number): Promise<number | undefined> {
  let q = db.selectFrom('pledge_mode').select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  const r = await q.executeTakeFirst();
  return r ? Number(r.id) : undefined;
}

export interface ModeValues {
  name: string;
  days: number;
  rate: bigint;
  minAmount: bigint;
  maxAmount: bigint;
  status: number;
  sort: number;
}

export async function insertMode(db: Db, v: ModeValues, now: number): Promise<number> {
  const r = await db
    .insertInto('pledge_mode')
    .values({
      name: v.name,
      days: v.days,
      rate: v.rate,
      min_amount: v.minAmount,
      max_amount: v.maxAmount,
      status: v.status,
      sort: v.sort,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateMode(db: Db, id: number, v: ModeValues, now: number): Promise<boolean> {
  const r = await db
    .updateTable('pledge_mode')
    .set({
      name: v.name,
      days: v.days,
      rate: v.rate,
      min_amount: v.minAmount,
      max_amount: v.maxAmount,
      status: v.status,
      sort: v.sort,
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
