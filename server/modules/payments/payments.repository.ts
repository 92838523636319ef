/** All SQL on payment methods. Plain functions taking `db` or `trx` first. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { membersMatching } from '../members/members.repository';

type Db = Kysely<Database> | Transaction<Database>;

export interface PaymentFilter {
  keyword?: string;
  memberId?: number;
  type?: number;
  status?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: PaymentFilter) {
  let q = db.selectFrom('payment_method as p');
  if (f.keyword) q = q.where('p.member_id', 'in', membersMatching(db, f.keyword));
  if (f.memberId !== undefined) q = q.where('p.member_id', '=', f.memberId);
  if (f.type !== undefined) q = q.where('p.type', '=', f.type);
  if (f.status !== undefined) q = q.where('p.status', '=', f.status);
  if (f.start !== undefined) q = q.where('p.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('p.created_at', '<=', f.end);
  return q;
}

const COLUMNS = [
  'p.id',
  'p.member_id',
  'm.uid',
  'm.phone',
  'm.nickname',
  'p.type',
  'p.holder',
  'p.account',
  'p.bank',
  'p.branch',
  'p.qr_url',
  'p.status',
  'p.remark',
  'p.auditor_name',
  'p.audited_at',
  'p.created_at',
] as const;

/** Ids grow with time, so both sort fields are the id order (one index walk, no sort). */
export async function findPaymentMethods(
  db: Db,
  f: PaymentFilter,
  page: { offset: number; limit: number; order: 'asc' | 'desc' },
) {
  const [rows, count] = await Promise.all([
    filtered(db, f)
      .innerJoin('member as m', 'm.id', 'p.member_id')
      .select(COLUMNS)
      .orderBy('p.id', page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export type PaymentMethodRow = Awaited<ReturnType<typeof findPaymentMethods>>['rows'][number];

/** One keyset batch for the export: rows with id < afterId, newest first. */
export function paymentMethodBatch(db: Db, f: PaymentFilter, afterId: number | null, limit: number) {
  let q = filtered(db, f).innerJoin('member as m', 'm.id', 'p.member_id').select(COLUMNS);
  if (afterId !== null) q = q.where('p.id', '<', afterId);
  return q.orderBy('p.id', 'desc').limit(limit).execute();
}

/**
 * One conditional UPDATE: moves the method from `from` to `to`. Returns the row when this call made
 * the move, undefined when it is missing or in another state.
 */
export async function movePaymentMethod(
  trx: Db,
  id: number,
  t: { from: readonly number[]; to: number; remark?: string; audited?: { managerId: number; username: string } },
  now: number,
) {
  const set: Record<string, unknown> = { status: t.to, updated_at: now };
  if (t.remark !== undefined) set.remark = t.remark;
  if (t.audited) {
    set.auditor_id = t.audited.managerId;
    set.auditor_name = t.audited.username;
    set.audited_at = now;
  }
  return trx
    .updateTable('payment_method')
    .set(set)
    .where('id', '=', id)
    .where('status', 'in', [...t.from])
    .returning(['id', 'member_id', 'type', 'account', 'status'])
    .executeTakeFirst();
}

export async function paymentMethodStatus(db: Db, id: number): Promise<number | undefined> {
  const r = await db.selectFrom('payment_method').select('status').where('id', '=', id).executeTakeFirst();
  return r?.status;
}

export async function insertPaymentMethod(
  db: Db,
  v: {
    memberId: number;
    type: number;
    holder: string;
    account: string;
    bank: string;
    branch: string;
    qrUrl: string;
    now: number;
  },
): Promise<number> {
  const r = await db
    .insertInto('payment_method')
    .values({
      member_id: v.memberId,
      type: v.type,
      holder: v.holder,
      account: v.account,
      bank: v.bank,
      branch: v.branch,
      qr_url: v.qrUrl,
      status: 0,
      remark: '',
      created_at: v.now,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function memberExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('member').select('id').where('id', '=', id).executeTakeFirst());
}
