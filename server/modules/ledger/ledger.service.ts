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
import { refuseOverflow } from '../../db/counters';
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
