/** All SQL on transfers. Plain functions taking `db` or `trx` first. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { forNoKeyUpdate } from '../../db/dialect';
import { money, moneySum } from '../../db/sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface TransferFilter {
  /** Member id on either side. */
  memberId?: number;
  asset?: string;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: TransferFilter) {
  let q = db.selectFrom('transfer as t');
  const id = f.memberId;
  if (id !== undefined) q = q.where((eb) => eb.or([eb('t.from_member_id', '=', id), eb('t.to_member_id', '=', id)]));
  if (f.asset) q = q.where('t.asset', '=', f.asset);
  if (f.start !== undefined) q = q.where('t.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('t.created_at', '<=', f.end);
  return q;
}

export async function findTransfers(
  db: Db,
  f: TransferFilter,
  page: { offset: number; limit: number; order: 'asc' | 'desc' },
) {
  const [rows, sums] = await Promise.all([
    filtered(db, f)
      .innerJoin('member as a', 'a.id', 't.from_member_id')
      .innerJoin('member as b', 'b.id', 't.to_member_id')
      .select([
        't.id',
        't.from_member_id',
        'a.uid as from_uid',
        'a.nickname as from_nickname',
        't.to_member_id',
        'b.uid as to_uid',
        'b.nickname as to_nickname',
        't.asset',
        money('t.amount').as('amount'),
        money('t.fee').as('fee'),
        't.created_at',
      ])
      .orderBy('t.id', page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, f)
      .select((eb) => [
        't.asset',
        eb.fn.countAll<number>().as('n'),
        moneySum('t.amount').as('amount'),
        moneySum('t.fee').as('fee'),
      ])
      .groupBy('t.asset')
      .orderBy('t.asset')
      .execute(),
  ]);
  return { rows, sums };
}

export async function memberByUid(db: Db, uid: string) {
  return db.selectFrom('member').select(['id', 'uid', 'status']).where('uid', '=', uid).executeTakeFirst();
}

/**
 * Both members of a transfer, row-locked on PostgreSQL in ascending id order: two opposite transfers
 * (A→B and B→A) queue on the same first lock instead of deadlocking, and a freeze committed meanwhile
 * is seen before any money moves.
 */
export async function lockMembers(db: Db, ids: number[]) {
  const q = db.selectFrom('member').select(['id', 'uid', 'status']).where('id', 'in', ids).orderBy('id');
  return forNoKeyUpdate(q, db as unknown as Kysely<unknown>).execute();
}

export async function insertTransfer(
  db: Db,
  v: { fromMemberId: number; toMemberId: number; asset: string; amount: bigint; fee: bigint; now: number },
): Promise<number> {
  const r = await db
    .insertInto('transfer')
    .values({
      from_member_id: v.fromMemberId,
      to_member_id: v.toMemberId,
      asset: v.asset,
      amount: v.amount,
      fee: v.fee,
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}
