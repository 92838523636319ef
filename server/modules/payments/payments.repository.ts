/** All SQL on payment methods. Plain functions taking `db` or `trx` first. */
import { type Kysely, type Selectable, type Transaction } from 'kysely';
import { PaymentStatus } from '../../../domain/payments';
import { selectArrays, type DbSource } from '../../db/dialect';
import { copyCsv, copyStatement } from '../../db/pgCopy';
import type { CopyRows } from '../../export/export';
import type { Database, MemberTable, PaymentMethodTable } from '../../db/schema';
import { memberIdIn, membersMatching } from '../members/members.query';
import { keysetSlice, readKeysetPage, type KeysetPageRequest } from '../../db/keyset';
import { counterViolations, rebuildCounter } from '../../db/counterAudit';
import { type CounterMoves } from '../../db/counterMoves';
import { counter, readCounter } from '../../db/counters';
import { updateFromFirst } from '../../db/transitions';

type Db = Kysely<Database> | Transaction<Database>;

export interface PaymentFilter {
  keyword?: string;
  /** The list's members: ids (a keyword resolved first), or a subquery when many (the export sends `keyword`). */
  members?: number[] | { keyword: string };
  memberId?: number;
  type?: number;
  status?: number;
  start?: number;
  end?: number;
}

function filtered(db: Db, f: PaymentFilter) {
  let q = db.selectFrom('payment_method as p');
  if (f.keyword) q = q.where('p.member_id', 'in', membersMatching(db, f.keyword));
  if (f.members) q = q.where(memberIdIn(db, 'p.member_id', f.members));
  if (f.memberId !== undefined) q = q.where('p.member_id', '=', f.memberId);
  if (f.type !== undefined) q = q.where('p.type', '=', f.type);
  if (f.status !== undefined) q = q.where('p.status', '=', f.status);
  if (f.start !== undefined) q = q.where('p.created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('p.created_at', '<=', f.end);
  return q;
}

/** What the export shows, in this order: the list's columns but member_id (a join key, not a column of the file). */
const EXPORT_COLUMNS = [
  'p.id',
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
/** What the list reads (in any order: its rows are objects). */
const COLUMNS = ['p.member_id', ...EXPORT_COLUMNS] as const;
type Column = (typeof COLUMNS)[number];
/** The payment method's own columns: the page is chosen from them alone, then joined to its members. */
const METHOD_COLUMNS = COLUMNS.filter((c): c is Extract<Column, `p.${string}`> => c.startsWith('p.'));

/** Nothing but a type and/or a status: payment_stat answers the count. */
const countedByStat = (f: PaymentFilter) =>
  !f.keyword && !f.members && f.memberId === undefined && f.start === undefined && f.end === undefined;

async function countOf(db: Db, f: PaymentFilter): Promise<number> {
  if (countedByStat(f)) {
    return (await readCounter(db, PAYMENT_STAT, { type: f.type, status: f.status })).n;
  }
  const r = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * A page (by page number or from a cursor, `<id>_<id>`) and the exact total of the filter. Ids grow
 * with time, so both sort fields are the id order: an index walk, or for a few members (a keyword, a
 * member id) their methods sorted after the lookup. The page is chosen alone, then joined to its members.
 */
export async function findPaymentMethods(db: Db, f: PaymentFilter, page: KeysetPageRequest) {
  const pageRows = keysetSlice(filtered(db, f).select(METHOD_COLUMNS), page, {
    sort: 'p.id',
    id: 'p.id',
    afterLookup: Array.isArray(f.members) || f.memberId !== undefined,
  }).as('p');
  const [paged, total] = await Promise.all([
    readKeysetPage(db.selectFrom(pageRows).innerJoin('member as m', 'm.id', 'p.member_id').select(COLUMNS), page, 'id'),
    countOf(db, f),
  ]);
  return { ...paged, total };
}

export type PaymentMethodRow = Awaited<ReturnType<typeof findPaymentMethods>>['rows'][number];

/** The type a selected column answers: `p.x` of payment_method, `m.x` of member. */
type ValueOf<C> = C extends `p.${infer K extends keyof PaymentMethodTable}`
  ? Selectable<PaymentMethodTable>[K]
  : C extends `m.${infer K extends keyof MemberTable}`
    ? Selectable<MemberTable>[K]
    : never;

/** The values of a select list, as a tuple (a mapped type over a type parameter maps a tuple to a tuple). */
type ValuesOf<T extends readonly string[]> = { readonly [I in keyof T]: ValueOf<T[I]> };

/** One exported row: an array, values in the order of EXPORT_COLUMNS (no object per row). */
export type PaymentExportRow = ValuesOf<typeof EXPORT_COLUMNS>;

/** Where each column sits in a PaymentExportRow: `row[PAYMENT_EXPORT_INDEX.uid]`. */
export const PAYMENT_EXPORT_INDEX = Object.fromEntries(EXPORT_COLUMNS.map((c, i) => [c.slice(2), i])) as {
  readonly [
    I in keyof typeof EXPORT_COLUMNS & `${number}` as (typeof EXPORT_COLUMNS)[I] extends `${string}.${infer K}`
      ? K
      : never
  ]: I extends `${infer N extends number}` ? N : never;
};

/** One keyset batch for the export: rows with id < afterId, newest first, as arrays. */
export function paymentMethodBatch(
  db: Db,
  f: PaymentFilter,
  afterId: number | null,
  limit: number,
): Promise<PaymentExportRow[]> {
  let q = filtered(db, f).innerJoin('member as m', 'm.id', 'p.member_id').select(EXPORT_COLUMNS);
  if (afterId !== null) q = q.where('p.id', '<', afterId);
  return selectArrays<PaymentExportRow>(db, q.orderBy('p.id', 'desc').limit(limit));
}

/** The fields of EXPORT_COLUMNS as the writers from COPY read them from PostgreSQL's CSV (CopyRows). */
const COPY_FIELDS = [
  'int', // id
  'bytes', // uid
  'bytes', // phone
  'bytes', // nickname
  'int', // type
  'bytes', // holder
  'bytes', // account
  'bytes', // bank
  'bytes', // branch
  'bytes', // qr_url
  'int', // status
  'bytes', // remark
  'bytes', // auditor_name
  'int', // audited_at
  'int', // created_at
] as const satisfies readonly CopyRows['fields'][number][] & { length: typeof EXPORT_COLUMNS.length };

/** Every method of the filter, newest first, as one COPY on PostgreSQL (the rows paymentMethodBatch pages through). */
export function paymentMethodCopy(db: Db, source: DbSource, f: PaymentFilter): CopyRows {
  const query = filtered(db, f)
    .innerJoin('member as m', 'm.id', 'p.member_id')
    .select(EXPORT_COLUMNS)
    .orderBy('p.id', 'desc')
    .compile();
  const statement = copyStatement(query); // refuses a value it cannot write now, before any byte
  return { fields: COPY_FIELDS, chunks: (signal) => copyCsv(source, statement, signal) };
}

/**
 * A conditional UPDATE: moves the method from `from` to `to`, and queues its payment_stat move. Returns
 * the row when this call made the move, undefined when it is missing or in another state.
 */
export async function movePaymentMethod(
  trx: Db,
  counts: CounterMoves,
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
  // One conditional UPDATE per source status, so the count moves from the status the method left.
  const moved = await updateFromFirst(t.from, (from) =>
    trx
      .updateTable('payment_method')
      .set(set)
      .where('id', '=', id)
      .where('status', '=', from)
      .returning(['id', 'member_id', 'type', 'account', 'status'])
      .executeTakeFirst(),
  );
  if (!moved) return undefined;
  movePaymentStat(trx, counts, moved.row.type, moved.from, t.to);
  return moved.row;
}

export async function paymentMethodStatus(db: Db, id: number): Promise<number | undefined> {
  const r = await db.selectFrom('payment_method').select('status').where('id', '=', id).executeTakeFirst();
  return r?.status;
}

/** Inserts a payment method waiting for review and queues its payment_stat count. */
export async function insertPaymentMethod(
  db: Db,
  counts: CounterMoves,
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
      status: PaymentStatus.is.pending,
      remark: '',
      created_at: v.now,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  movePaymentStat(db, counts, v.type, null, 0);
  return Number(r.id);
}

export async function memberExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('member').select('id').where('id', '=', id).executeTakeFirst());
}

const PAYMENT_STAT = counter({ table: 'payment_stat', source: 'payment_method', keys: ['type', 'status'], sums: {} });

/**
 * Queues the move of one payment method of `type` from status `from` (null: a new method) to `to` in
 * payment_stat, for the end of the caller's transaction (`CounterMoves`, server/db/counterMoves.ts).
 */
function movePaymentStat(db: Db, counts: CounterMoves, type: number, from: number | null, to: number): void {
  counts.move(db, PAYMENT_STAT, from === null ? null : { type, status: from }, { type, status: to }, {});
}

/** Recounts payment_stat from the payment methods (bulk loads that write them directly). */
export const rebuildPaymentStats = (db: Db): Promise<void> => rebuildCounter(db, PAYMENT_STAT);

/** (type, status) rows where payment_stat differs from the payment methods (empty when consistent). */
export const paymentStatViolations = (db: Db) => counterViolations(db, PAYMENT_STAT);
