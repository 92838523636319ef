/**
 * All SQL on matches. Plain functions taking `db` or `trx` first. Built for 500,000 matches: pages by
 * keyset at any depth; the total and sums of a status filter come from match_stat, a seller's or a
 * buyer's from match_seller_stat / match_buyer_stat (all moved with every insert and status change).
 * Every state change is one conditional UPDATE per allowed source state (`updateFromFirst`).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { forNoKeyUpdate } from '../../db/dialect';
import { keysetSlice, readKeysetPage, type KeysetPageRequest } from '../../db/keyset';
import { money, moneySum } from '../../db/sql';
import { updateFromFirst } from '../../db/transitions';
import { memberIdIn, type KeywordMembers } from '../members/members.query';

type Db = Kysely<Database> | Transaction<Database>;

export interface MatchFilter {
  sellers?: KeywordMembers;
  buyers?: KeywordMembers;
  status?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: MatchFilter) {
  let q = db.selectFrom('match_trade as t');
  if (f.sellers) q = q.where(memberIdIn(db, 't.seller_id', f.sellers));
  if (f.buyers) q = q.where(memberIdIn(db, 't.buyer_id', f.buyers));
  if (f.status !== undefined) q = q.where('t.status', '=', f.status);
  if (f.start !== undefined) q = q.where('t.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('t.created_at', '<=', f.end);
  return q;
}

/**
 * The counters that answer a filter without a date range: match_stat for a status, a side's counter
 * for the members of one keyword (ids) on that side; none for both sides or a keyword of many members.
 */
function countedBy(db: Db, f: MatchFilter) {
  if (f.start !== undefined || f.end !== undefined || (f.sellers && f.buyers)) return undefined;
  const status = f.status;
  if (!f.sellers && !f.buyers) return readCounter(db, MATCH_STAT, { status });
  if (Array.isArray(f.sellers)) return readCounter(db, MATCH_SELLER_STAT, { seller_id: f.sellers, status });
  if (Array.isArray(f.buyers)) return readCounter(db, MATCH_BUYER_STAT, { buyer_id: f.buyers, status });
  return undefined;
}

async function countAndSum(db: Db, f: MatchFilter) {
  const counted = countedBy(db, f);
  if (counted) {
    const r = await counted;
    return { n: r.n, quantity: r.quantity_sum, total: r.total_sum };
  }
  return filtered(db, f)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      moneySum('t.quantity').as('quantity'),
      moneySum('t.total').as('total'),
    ])
    .executeTakeFirstOrThrow();
}

export interface MatchPageRow {
  id: number;
  seller_id: number;
  seller_uid: string;
  seller_phone: string;
  seller_nickname: string;
  buyer_id: number;
  buyer_uid: string;
  buyer_phone: string;
  buyer_nickname: string;
  quantity: string;
  unit_price: string;
  total: string;
  payment: string;
  proof_url: string;
  status: number;
  appeal_reason: string;
  appeal_by: number;
  remark: string;
  expires_at: number;
  paid_at: number | null;
  finished_at: number | null;
  arbiter_name: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * A page of matches (newest first by default) and the exact total and sums of the filter. The page is
 * chosen alone — an index walk (one member on one side: that side's (member, id) index), or for a few
 * members their matches sorted — then joined to both members.
 */
export async function findMatches(db: Db, f: MatchFilter, page: KeysetPageRequest) {
  const one = (m: KeywordMembers | undefined) => Array.isArray(m) && m.length === 1;
  const lookedUp = Array.isArray(f.sellers) || Array.isArray(f.buyers);
  const few = lookedUp && !((one(f.sellers) && !f.buyers) || (one(f.buyers) && !f.sellers));
  const pageRows = keysetSlice(
    filtered(db, f).select([
      't.id',
      't.seller_id',
      't.buyer_id',
      money('t.quantity').as('quantity'),
      money('t.unit_price').as('unit_price'),
      money('t.total').as('total'),
      't.payment',
      't.proof_url',
      't.status',
      't.appeal_reason',
      't.appeal_by',
      't.remark',
      't.expires_at',
      't.paid_at',
      't.finished_at',
      't.arbiter_name',
      't.created_at',
      't.updated_at',
    ]),
    page,
    { sort: 't.id', id: 't.id', afterLookup: few },
  ).as('p');
  const [paged, agg] = await Promise.all([
    readKeysetPage(
      db
        .selectFrom(pageRows)
        .innerJoin('member as s', 's.id', 'p.seller_id')
        .innerJoin('member as b', 'b.id', 'p.buyer_id')
        .selectAll('p')
        .select([
          's.uid as seller_uid',
          's.phone as seller_phone',
          's.nickname as seller_nickname',
          'b.uid as buyer_uid',
          'b.phone as buyer_phone',
          'b.nickname as buyer_nickname',
        ])
        .$castTo<MatchPageRow>(),
      page,
      'id',
    ),
    countAndSum(db, f),
  ]);
  return { ...paged, total: Number(agg.n), sumQuantity: agg.quantity, sumTotal: agg.total };
}

/** match_stat: matches per status with their quantity and total. */
const MATCH_STAT = counter({
  table: 'match_stat',
  source: 'match_trade',
  keys: ['status'],
  sums: { quantity_sum: 'quantity', total_sum: 'total' },
});

/** match_seller_stat: a seller's matches per status with their quantity and total. */
const MATCH_SELLER_STAT = counter({
  table: 'match_seller_stat',
  source: 'match_trade',
  keys: ['seller_id', 'status'],
  sums: { quantity_sum: 'quantity', total_sum: 'total' },
});

/** match_buyer_stat: a buyer's matches per status with their quantity and total. */
const MATCH_BUYER_STAT = counter({
  table: 'match_buyer_stat',
  source: 'match_trade',
  keys: ['buyer_id', 'status'],
  sums: { quantity_sum: 'quantity', total_sum: 'total' },
});

const MATCH_COUNTERS = [MATCH_STAT, MATCH_SELLER_STAT, MATCH_BUYER_STAT] as const;

export async function rebuildMatchStats(db: Db): Promise<void> {
  for (const c of MATCH_COUNTERS) await rebuildCounter(db, c);
}

/** Where match_stat, match_seller_stat or match_buyer_stat differ from the matches (empty when consistent). */
export async function matchStatViolations(db: Db): Promise<Array<Record<string, number | string>>> {
  return (await Promise.all(MATCH_COUNTERS.map((c) => counterViolations<string, string>(db, c)))).flat();
}

/** Queues the moves of one match from status `from` (null: a new match) to `to` in the three counters. */
function moveMatchStat(
  db: Db,
  counts: CounterMoves,
  m: { sellerId: number; buyerId: number; quantity: bigint; total: bigint },
  from: number | null,
  to: number,
): void {
  const sums = { quantity_sum: m.quantity, total_sum: m.total };
  const at = (status: number | null) => (status === null ? null : { status });
  counts.move(db, MATCH_STAT, at(from), { status: to }, sums);
  const seller = (status: number | null) => (status === null ? null : { seller_id: m.sellerId, status });
  counts.move(db, MATCH_SELLER_STAT, seller(from), { seller_id: m.sellerId, status: to }, sums);
  const buyer = (status: number | null) => (status === null ? null : { buyer_id: m.buyerId, status });
  counts.move(db, MATCH_BUYER_STAT, buyer(from), { buyer_id: m.buyerId, status: to }, sums);
}

export interface NewMatch {
  sellerId: number;
  buyerId: number;
  quantity: bigint;
  unitPrice: bigint;
  total: bigint;
  payment: string;
  expiresAt: number;
  now: number;
}

/** Inserts a match (待付款) and queues its match_stat count. */
export async function insertMatch(db: Db, counts: CounterMoves, v: NewMatch): Promise<number> {
  const r = await db
    .insertInto('match_trade')
    .values({
      seller_id: v.sellerId,
      buyer_id: v.buyerId,
      quantity: v.quantity,
      unit_price: v.unitPrice,
      total: v.total,
      payment: v.payment,
      status: 1,
      expires_at: v.expiresAt,
      created_at: v.now,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  moveMatchStat(db, counts, v, null, 1);
  return Number(r.id);
}

export interface MatchMove {
  from: readonly number[];
  to: number;
  /** Only when the match belongs to this member on that side (member-side actions). */
  sellerId?: number;
  buyerId?: number;
  /** Only while the payment deadline has not passed (markPaid) / has passed (the expiry). */
  expiresAfter?: number;
  expiredBy?: number;
  set: {
    proof_url?: string;
    paid_at?: number;
    finished_at?: number;
    appeal_reason?: string;
    appeal_by?: number;
    remark?: string;
    arbiter_id?: number;
    arbiter_name?: string;
  };
  now: number;
}

/**
 * One conditional UPDATE per allowed source state; queues the match_stat move. Returns what the ledger
 * and the op log need (and the state it left) when this call made the move, undefined otherwise.
 */
export async function moveMatch(trx: Db, counts: CounterMoves, id: number, m: MatchMove) {
  const moved = await updateFromFirst(m.from, (from) => {
    let q = trx
      .updateTable('match_trade')
      .set({ ...m.set, status: m.to, updated_at: m.now })
      .where('id', '=', id)
      .where('status', '=', from);
    if (m.sellerId !== undefined) q = q.where('seller_id', '=', m.sellerId);
    if (m.buyerId !== undefined) q = q.where('buyer_id', '=', m.buyerId);
    if (m.expiresAfter !== undefined) q = q.where('expires_at', '>', m.expiresAfter);
    if (m.expiredBy !== undefined) q = q.where('expires_at', '<=', m.expiredBy);
    return q
      .returning(['seller_id', 'buyer_id', money('quantity').as('quantity'), money('total').as('total')])
      .executeTakeFirst();
  });
  if (!moved) return undefined;
  const row = {
    sellerId: Number(moved.row.seller_id),
    buyerId: Number(moved.row.buyer_id),
    quantity: BigInt(moved.row.quantity),
    total: BigInt(moved.row.total),
    from: moved.from,
  };
  moveMatchStat(trx, counts, row, moved.from, m.to);
  return row;
}

/** The parties and state of a match (to explain a refused move), undefined when missing. */
export async function matchState(db: Db, id: number) {
  const r = await db
    .selectFrom('match_trade')
    .select(['status', 'seller_id', 'buyer_id', 'expires_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    r && {
      status: r.status,
      sellerId: Number(r.seller_id),
      buyerId: Number(r.buyer_id),
      expiresAt: Number(r.expires_at),
    }
  );
}

/** Up to `limit` unpaid matches whose deadline is at or before `now`, oldest deadline first. */
export async function expiredMatchIds(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('match_trade')
    .select('id')
    .where('status', '=', 1)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** The members' statuses, row-locked on PostgreSQL in ascending id order (see transfers' lockMembers). */
export async function lockMembers(db: Db, ids: number[]) {
  const q = db.selectFrom('member').select(['id', 'status']).where('id', 'in', ids).orderBy('id');
  return forNoKeyUpdate(q, db as unknown as Kysely<unknown>).execute();
}
