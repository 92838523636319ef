/** All SQL on deposits and receiving addresses. Plain functions taking `db` or `trx` first. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { likePrefix, money, moneySum } from '../../db/sql';
import { membersMatching } from '../members/members.repository';

type Db = Kysely<Database> | Transaction<Database>;

export interface DepositFilter {
  keyword?: string;
  txHash?: string;
  chain?: string;
  status?: number;
  start?: number;
  end?: number;
}

const SORT_COLUMNS = {
  id: 'd.id',
  createdAt: 'd.created_at',
  amount: 'd.amount',
  auditedAt: sql`coalesce(d.audited_at, 0)`,
} as const;
export type DepositSort = keyof typeof SORT_COLUMNS;

function filtered(db: Db, f: DepositFilter) {
  let q = db.selectFrom('deposit as d');
  if (f.keyword) q = q.where('d.member_id', 'in', membersMatching(db, f.keyword));
  if (f.txHash) q = q.where('d.tx_hash', '=', f.txHash.trim().toLowerCase());
  if (f.chain) q = q.where('d.chain', '=', f.chain);
  if (f.status !== undefined) q = q.where('d.status', '=', f.status);
  if (f.start !== undefined) q = q.where('d.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('d.created_at', '<=', f.end);
  return q;
}

export async function findDeposits(
  db: Db,
  f: DepositFilter,
  page: { offset: number; limit: number; sort: DepositSort; order: 'asc' | 'desc' },
) {
  const sortCol = SORT_COLUMNS[page.sort];
  const [rows, agg] = await Promise.all([
    filtered(db, f)
      .innerJoin('member as m', 'm.id', 'd.member_id')
      .select([
        'd.id',
        'd.member_id',
        'm.uid',
        'm.phone',
        'm.nickname',
        'd.chain',
        'd.from_address',
        'd.to_address',
        money('d.amount').as('amount'),
        'd.tx_hash',
        'd.proof_url',
        'd.status',
        'd.remark',
        'd.auditor_id',
        'd.auditor_name',
        'd.audited_at',
        'd.created_at',
      ])
      .orderBy(typeof sortCol === 'string' ? sql.ref(sortCol) : sortCol, page.order)
      .orderBy('d.id', page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, f)
      .select((eb) => [eb.fn.countAll<number>().as('n'), moneySum('d.amount').as('amount')])
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(agg.n), sumAmount: agg.amount };
}

/**
 * Moves a pending deposit to `status`: one conditional UPDATE. Returns the member and amount when this
 * call made the move, undefined when the deposit is missing or no longer pending.
 */
export async function settlePending(
  trx: Db,
  id: number,
  status: number,
  by: { managerId: number; username: string; remark: string; now: number },
) {
  return trx
    .updateTable('deposit')
    .set({
      status,
      remark: by.remark,
      auditor_id: by.managerId,
      auditor_name: by.username,
      audited_at: by.now,
    })
    .where('id', '=', id)
    .where('status', '=', 0)
    .returning(['member_id', money('amount').as('amount')])
    .executeTakeFirst();
}

export async function depositExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('deposit').select('id').where('id', '=', id).executeTakeFirst());
}

export async function insertDeposit(
  db: Db,
  v: {
    memberId: number;
    chain: string;
    fromAddress: string;
    toAddress: string;
    amount: bigint;
    txHash: string;
    proofUrl: string;
    now: number;
  },
): Promise<number> {
  const r = await db
    .insertInto('deposit')
    .values({
      member_id: v.memberId,
      chain: v.chain,
      from_address: v.fromAddress,
      to_address: v.toAddress,
      amount: v.amount,
      tx_hash: v.txHash,
      proof_url: v.proofUrl,
      remark: '',
      created_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

// ---- receiving addresses ----

export interface DepositAccountFilter {
  chain?: string;
  status?: number;
  address?: string;
}

function accountsFiltered(db: Db, f: DepositAccountFilter) {
  let q = db.selectFrom('deposit_account');
  if (f.chain) q = q.where('chain', '=', f.chain);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.address) q = q.where(sql<boolean>`address like ${likePrefix(f.address)} escape '\\'`);
  return q;
}

export async function findDepositAccounts(
  db: Db,
  f: DepositAccountFilter,
  page: { offset: number; limit: number; order: 'asc' | 'desc' },
) {
  const [rows, count] = await Promise.all([
    accountsFiltered(db, f).selectAll().orderBy('id', page.order).offset(page.offset).limit(page.limit).execute(),
    accountsFiltered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findDepositAccount(db: Db, id: number) {
  return db.selectFrom('deposit_account').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function enabledAccountsOn(db: Db, chain: string) {
  return db
    .selectFrom('deposit_account')
    .select(['id', 'address'])
    .where('chain', '=', chain)
    .where('status', '=', 1)
    .orderBy('id')
    .execute();
}
