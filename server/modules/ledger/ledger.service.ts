/**
 * The ledger: the only code that writes a balance. Every change is one conditional UPDATE of the
 * account (it cannot take available or frozen below zero, enforced again by CHECK constraints) and
 * one bill row, inside the caller's transaction, so a balance and its bill never part.
 */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { Assets, type Asset } from '../../../domain/assets';
import type { BillType } from '../../../domain/bills';
import { AssetCeiling, assetCeilingText } from '../../../domain/money';
import { refuseOverflow } from '../../db/overflow';
import { bulkRows } from '../../db/bulk';
import { dialectOf } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import { Code } from '../../../domain/codes';
import {
  BLOCK_DAYS,
  countInDayStat,
  DAY_MS,
  dayOf,
  dayStart,
  dayStatViolations,
  rebuildDayStat,
  type DayStat,
} from '../../db/dayBuckets';

type Trx = Transaction<Database> | Kysely<Database>;

export interface LedgerChange {
  memberId: number;
  asset: Asset;
  /** Signed change of available, minor units. */
  available: bigint;
  /** Signed change of frozen, minor units (0 when omitted). */
  frozen?: bigint;
  type: BillType;
  ref?: { kind: string; id: number | null };
  remark?: string;
}

/** The day and 32-day block buckets of bill_stat (shared with transfer_stat). */
export { BLOCK_DAYS, DAY_MS, dayStart };
/** The Asia/Shanghai day number of an epoch-ms time: bill_stat's 'D' bucket. */
export const billDay = dayOf;

export interface LedgerResult {
  billId: number;
  available: bigint;
  frozen: bigint;
}

export class InsufficientBalance extends AppError {
  constructor(which: 'available' | 'frozen') {
    super(Code.badInput, which === 'available' ? '可用余额不足' : '冻结余额不足');
  }
}

/** Opens the member's accounts (all assets, zero) — called when a member is created. */
export async function openAccounts(trx: Trx, memberId: number, now: number): Promise<void> {
  await trx
    .insertInto('account')
    .values(Assets.map((asset) => ({ member_id: memberId, asset, available: 0n, frozen: 0n, updated_at: now })))
    .onConflict((oc) => oc.columns(['member_id', 'asset']).doNothing())
    .execute();
}

/** A credit that would take a balance (available + frozen) past its asset's ceiling. */
export class BalanceCeiling extends AppError {
  constructor(asset: Asset) {
    super(Code.badInput, `余额不能超过上限（每个账户最多${assetCeilingText(asset)} ${asset}）`);
  }
}

export async function applyChange(trx: Trx, change: LedgerChange, now: number): Promise<LedgerResult> {
  const da = change.available;
  const df = change.frozen ?? 0n;
  if (da === 0n && df === 0n) throw new Error('a ledger change must move something');
  const ceiling = AssetCeiling[change.asset];
  // Only a change that adds to the balance meets the ceiling: a debit always goes through.
  const grows = da + df > 0n;
  let q = trx
    .updateTable('account')
    .set({
      available: sql`available + ${da}`,
      frozen: sql`frozen + ${df}`,
      updated_at: now,
    })
    .where('member_id', '=', change.memberId)
    .where('asset', '=', change.asset)
    .where(sql<boolean>`available + ${da} >= 0`)
    .where(sql<boolean>`frozen + ${df} >= 0`);
  if (grows) q = q.where(sql<boolean>`available + frozen + ${da + df} <= ${ceiling}`);
  const row = await refuseOverflow(() =>
    q
      .returning([sql<string>`cast(available as text)`.as('available'), sql<string>`cast(frozen as text)`.as('frozen')])
      .executeTakeFirst(),
  );
  if (!row) {
    const exists = await trx
      .selectFrom('account')
      .select([sql<string>`cast(available as text)`.as('available'), sql<string>`cast(frozen as text)`.as('frozen')])
      .where('member_id', '=', change.memberId)
      .where('asset', '=', change.asset)
      .executeTakeFirst();
    if (!exists) throw new Error(`no ${change.asset} account for member ${change.memberId}`);
    const available = BigInt(exists.available);
    const frozen = BigInt(exists.frozen);
    if (available + da < 0n) throw new InsufficientBalance('available');
    if (frozen + df < 0n) throw new InsufficientBalance('frozen');
    throw new BalanceCeiling(change.asset);
  }
  const available = BigInt(row.available);
  const frozen = BigInt(row.frozen);
  const bill = await trx
    .insertInto('bill')
    .values({
      member_id: change.memberId,
      asset: change.asset,
      type: change.type,
      change: da,
      available_after: available,
      frozen_change: df,
      frozen_after: frozen,
      ref_kind: change.ref?.kind ?? '',
      ref_id: change.ref?.id ?? null,
      remark: (change.remark ?? '').slice(0, 200),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await countInDayStat(
    trx,
    BILL_STAT,
    now,
    { asset: change.asset, type: change.type },
    { change_sum: da, frozen_change_sum: df },
  );
  return { billId: Number(bill.id), available, frozen };
}

/** One credit of `applyCredits`: a positive change of available, with its bill. */
export interface LedgerCredit {
  memberId: number;
  asset: Asset;
  /** Added to available, minor units (> 0). */
  amount: bigint;
  type: BillType;
  ref?: { kind: string; id: number | null };
  remark?: string;
}

/** Bills per insert (on SQLite 9 parameters each: well under its limit). */
const BILL_INSERT_ROWS = 2000;

/**
 * Many members' credits (the settlement job's yields and releases) in a few multi-row statements inside
 * the caller's transaction, with the invariants of `applyChange`: each account's balance moves by the sum
 * of its credits (refused past the asset's ceiling, the whole transaction with it), each credit is one
 * bill whose `available_after` is the balance after it (in the order given), and bill_stat counts them.
 * The accounts are locked in (member, asset) order, so two writers cannot deadlock over them.
 */
export async function applyCredits(trx: Trx, credits: readonly LedgerCredit[], now: number): Promise<number> {
  if (credits.length === 0) return 0;
  const totals = new Map<string, { memberId: number; asset: Asset; sum: bigint }>();
  for (const c of credits) {
    if (c.amount <= 0n) throw new Error('a ledger credit must be positive');
    const key = `${c.memberId}:${c.asset}`;
    const t = totals.get(key);
    if (t) t.sum += c.amount;
    else totals.set(key, { memberId: c.memberId, asset: c.asset, sum: c.amount });
  }
  const keys = [...totals.values()].sort((a, b) =>
    a.memberId !== b.memberId ? a.memberId - b.memberId : a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0,
  );
  const values = bulkRows(
    trx,
    ['bigint', 'text', 'bigint'],
    keys.map((k) => [k.memberId, k.asset, k.sum]),
  );
  if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') {
    // Row locks in key order first: the UPDATE … FROM below locks in whatever order its join runs.
    await sql`with v(member_id, asset, d) as (${values})
      select 1 from account a join v on a.member_id = v.member_id and a.asset = v.asset
      order by a.member_id, a.asset for no key update of a`.execute(trx);
  }
  const ceilings = sql.join(
    Assets.map((a) => sql`when ${a} then cast(${AssetCeiling[a]} as bigint)`),
    sql` `,
  );
  const updated = await refuseOverflow(() =>
    sql<{ member_id: number | string; asset: string; available: string; frozen: string }>`
      with v(member_id, asset, d) as (${values})
      update account set available = account.available + v.d, updated_at = ${now}
      from v
      where account.member_id = v.member_id and account.asset = v.asset
        and account.available + account.frozen + v.d <= (case v.asset ${ceilings} end)
      returning account.member_id, account.asset,
        cast(account.available as text) as available, cast(account.frozen as text) as frozen`.execute(trx),
  );
  const after = new Map(updated.rows.map((r) => [`${Number(r.member_id)}:${r.asset}`, r]));
  if (after.size !== keys.length) {
    const missing = keys.find((k) => !after.has(`${k.memberId}:${k.asset}`))!;
    const exists = await trx
      .selectFrom('account')
      .select('member_id')
      .where('member_id', '=', missing.memberId)
      .where('asset', '=', missing.asset)
      .executeTakeFirst();
    if (!exists) throw new Error(`no ${missing.asset} account for member ${missing.memberId}`);
    throw new BalanceCeiling(missing.asset);
  }
  // Each bill's balance after it: the balance before the batch plus the credits up to and including it.
  const running = new Map<string, { available: bigint; frozen: bigint }>();
  for (const [key, t] of totals) {
    const r = after.get(key)!;
    running.set(key, { available: BigInt(r.available) - t.sum, frozen: BigInt(r.frozen) });
  }
  const bills = credits.map((c) => {
    const bal = running.get(`${c.memberId}:${c.asset}`)!;
    bal.available += c.amount;
    return [
      c.memberId,
      c.asset,
      c.type,
      c.amount,
      bal.available,
      bal.frozen,
      c.ref?.kind ?? '',
      c.ref?.id ?? null,
      (c.remark ?? '').slice(0, 200),
    ] as const;
  });
  for (let i = 0; i < bills.length; i += BILL_INSERT_ROWS) {
    const rows = bulkRows(
      trx,
      ['bigint', 'text', 'integer', 'bigint', 'bigint', 'bigint', 'text', 'bigint', 'text'],
      bills.slice(i, i + BILL_INSERT_ROWS),
    );
    await sql`with v(member_id, asset, type, change, available_after, frozen_after, ref_kind, ref_id, remark) as (${rows})
      insert into bill (member_id, asset, type, change, available_after, frozen_change, frozen_after, ref_kind, ref_id,
                        remark, created_at)
      select member_id, asset, type, change, available_after, 0, frozen_after, ref_kind, ref_id, remark, cast(${now} as bigint)
      from v`.execute(trx);
  }
  const stats = new Map<string, { asset: Asset; type: BillType; n: number; sum: bigint }>();
  for (const c of credits) {
    const key = `${c.asset}:${c.type}`;
    const st = stats.get(key);
    if (st) {
      st.n += 1;
      st.sum += c.amount;
    } else stats.set(key, { asset: c.asset, type: c.type, n: 1, sum: c.amount });
  }
  const ordered = [...stats.values()].sort((a, b) =>
    a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : a.type - b.type,
  );
  for (const st of ordered) {
    await countInDayStat(
      trx,
      BILL_STAT,
      now,
      { asset: st.asset, type: st.type },
      { change_sum: st.sum, frozen_change_sum: 0n },
      st.n,
    );
  }
  return bills.length;
}

/** bill_stat: bills per day and 32-day block, asset and type, with their available and frozen changes. */
const BILL_STAT = {
  table: 'bill_stat',
  source: 'bill',
  keys: ['asset', 'type'],
  sums: { change_sum: 'change', frozen_change_sum: 'frozen_change' },
} as const satisfies DayStat<'asset' | 'type', 'change_sum' | 'frozen_change_sum'>;

/**
 * What all accounts hold per asset: by the ledger invariant the sum of every bill's change (and frozen
 * change), i.e. of bill_stat's 32-day blocks — a few hundred rows instead of millions of accounts.
 */
export async function ledgerTotals(db: Trx): Promise<Array<{ asset: string; available: string; frozen: string }>> {
  return db
    .selectFrom('bill_stat')
    .select([
      'asset',
      sql<string>`cast(coalesce(sum(change_sum), 0) as text)`.as('available'),
      sql<string>`cast(coalesce(sum(frozen_change_sum), 0) as text)`.as('frozen'),
    ])
    .where('kind', '=', 'B')
    .groupBy('asset')
    .execute();
}

/** Recounts bill_stat from the bills (bulk loads that write bills directly). */
export const rebuildBillStats = (db: Trx): Promise<void> => rebuildDayStat(db, BILL_STAT);

/** bill_stat rows that differ from the bills themselves (empty when consistent); for tests and bulk loads. */
export const billStatViolations = (db: Trx) => dayStatViolations(db, BILL_STAT);

/** A member's balances as minor units, keyed by asset. */
export async function balancesOf(
  db: Trx,
  memberId: number,
): Promise<Record<Asset, { available: bigint; frozen: bigint }>> {
  const rows = await db
    .selectFrom('account')
    .select([
      'asset',
      sql<string>`cast(available as text)`.as('available'),
      sql<string>`cast(frozen as text)`.as('frozen'),
    ])
    .where('member_id', '=', memberId)
    .execute();
  const out = Object.fromEntries(Assets.map((a) => [a, { available: 0n, frozen: 0n }])) as Record<
    Asset,
    { available: bigint; frozen: bigint }
  >;
  for (const r of rows) out[r.asset as Asset] = { available: BigInt(r.available), frozen: BigInt(r.frozen) };
  return out;
}

/**
 * The ledger invariant of DOMAIN.md, as one query: accounts whose balances differ from the sum of
 * their bills. Used by tests and by `npm run bench:data` to verify bulk data. Empty = consistent.
 */
export async function ledgerViolations(db: Trx) {
  const rows = await sql<{
    member_id: number;
    asset: string;
    available: string;
    frozen: string;
    sum_change: string;
    sum_frozen: string;
  }>`
    select a.member_id, a.asset, cast(a.available as text) as available, cast(a.frozen as text) as frozen,
           cast(coalesce(b.sum_change, 0) as text) as sum_change, cast(coalesce(b.sum_frozen, 0) as text) as sum_frozen
    from account a
    left join (select member_id, asset, sum(change) as sum_change, sum(frozen_change) as sum_frozen
               from bill group by member_id, asset) b
      on b.member_id = a.member_id and b.asset = a.asset
    where a.available <> coalesce(b.sum_change, 0) or a.frozen <> coalesce(b.sum_frozen, 0)
       or a.available < 0 or a.frozen < 0
  `.execute(db);
  return rows.rows;
}
