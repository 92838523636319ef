/**
 * All SQL on transfers. Plain functions taking `db` or `trx` first. Built for millions of rows
 * (docs/decisions.md "Transfers"): pages by id, by page number within the first MAX_OFFSET rows and by
 * keyset cursor at any depth; the total and per-asset sums of an asset/date filter come from
 * transfer_stat (per day and 32-day block, written with each transfer) plus the part-days read directly;
 * a member's transfers (either side) are few and counted directly.
 */
import type { Kysely, Transaction } from 'kysely';
import type { CounterMoves } from '../../db/counterMoves';
import type { Database } from '../../db/schema';
import { countInDayStat, dayStatViolations, rebuildDayStat, sumByAsset, type DayStat } from '../../db/dayBuckets';
import { forNoKeyUpdate } from '../../db/dialect';
import { keysetSlice, readKeysetPage, type KeysetPageRequest } from '../../db/keyset';
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

export interface TransferPageRow {
  id: number;
  from_member_id: number;
  from_uid: string;
  from_nickname: string;
  to_member_id: number;
  to_uid: string;
  to_nickname: string;
  asset: string;
  amount: string;
  fee: string;
  created_at: number;
}

/**
 * One page in id order (newest first by default), from `offset` or from a cursor (`<id>_<id>`). The page
 * is chosen alone — an index walk, or for a member that member's transfers found through the two member
 * indexes and sorted (+ 0: not by walking the primary key and testing each transfer) — then joined to
 * both members.
 */
export async function findTransfers(db: Db, f: TransferFilter, page: KeysetPageRequest) {
  const pageRows = keysetSlice(
    filtered(db, f).select([
      't.id',
      't.from_member_id',
      't.to_member_id',
      't.asset',
      money('t.amount').as('amount'),
      money('t.fee').as('fee'),
      't.created_at',
    ]),
    page,
    { sort: 't.id', id: 't.id', afterLookup: f.memberId !== undefined },
  ).as('p');
  return readKeysetPage(
    db
      .selectFrom(pageRows)
      .innerJoin('member as a', 'a.id', 'p.from_member_id')
      .innerJoin('member as b', 'b.id', 'p.to_member_id')
      .selectAll('p')
      .select(['a.uid as from_uid', 'a.nickname as from_nickname', 'b.uid as to_uid', 'b.nickname as to_nickname'])
      .$castTo<TransferPageRow>(),
    page,
    'id',
  );
}

export interface TransferSums {
  asset: string;
  n: number;
  amount: string;
  fee: string;
}

/** Count and per-asset sums counted from the transfers themselves (a member's, or a part-day). */
export async function countTransfers(db: Db, f: TransferFilter): Promise<TransferSums[]> {
  const rows = await filtered(db, f)
    .select((eb) => [
      't.asset',
      eb.fn.countAll<number>().as('n'),
      moneySum('t.amount').as('amount'),
      moneySum('t.fee').as('fee'),
    ])
    .groupBy('t.asset')
    .orderBy('t.asset')
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * Exact count and sums per asset of an asset/date filter: transfer_stat rows for the whole days and
 * blocks of the range, plus the transfers of its part-days (server/db/dayBuckets.ts).
 */
export async function statTransfers(db: Db, f: { asset?: string; start?: number; end?: number }) {
  return sumByAsset(
    db,
    { table: 'transfer_stat', sums: { amount: 'amount_sum', fee: 'fee_sum' }, where: { asset: f.asset } },
    f,
    (start, end) => countTransfers(db, { asset: f.asset, start, end }),
  );
}

/** transfer_stat: transfers per day and 32-day block and asset, with their amounts and fees. */
const TRANSFER_STAT = {
  table: 'transfer_stat',
  source: 'transfer',
  keys: ['asset'],
  sums: { amount_sum: 'amount', fee_sum: 'fee' },
} as const satisfies DayStat<'asset', 'amount_sum' | 'fee_sum'>;

/** Recounts transfer_stat from the transfers (bulk loads that write them directly). */
export const rebuildTransferStats = (db: Db): Promise<void> => rebuildDayStat(db, TRANSFER_STAT);

/** transfer_stat rows that differ from the transfers themselves (empty when consistent). */
export const transferStatViolations = (db: Db) => dayStatViolations(db, TRANSFER_STAT);

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

/**
 * Inserts a transfer and queues its count in its day and 32-day block of transfer_stat, for the end of
 * the transaction: the hottest rows of the transaction are held for the commit only.
 */
export async function insertTransfer(
  db: Db,
  counts: CounterMoves,
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
  counts.add(() =>
    countInDayStat(db, TRANSFER_STAT, v.now, { asset: v.asset }, { amount_sum: v.amount, fee_sum: v.fee }),
  );
  return Number(r.id);
}
