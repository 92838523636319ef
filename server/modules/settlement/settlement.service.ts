/**
 * The daily settlement job (issue 11, model.md "Terms and rounding"). A run of Asia/Shanghai day D pays
 * every active pledge and growing seed whose last paid day is before D: the release of each day it is
 * owed up to D (normally just D; more only when days were run out of order), the principal on a
 * pledge's end day, and moves the record to its final status on that day. Then it cancels the unpaid
 * matches that expired by the end of D.
 *
 * Exactly once: each batch of records is one transaction (release rows, bills, balances, the records'
 * `paid_day`, counters, the run's totals); the records' UPDATE moves only rows still at the `paid_day`
 * the batch read, and the release tables are UNIQUE (record, day), so a batch that meets a record already
 * paid rolls back whole, a second run of a day finds nothing to pay, and a run killed at any point and
 * started again pays what the killed one had not committed.
 *
 * One process per day: the run's row in settlement_run is a lease (owner + lease_until) taken with a
 * conditional INSERT/UPDATE and renewed, with a conditional UPDATE that also locks the row, at the start
 * of every batch, so of several processes on one database exactly one settles a given day, and a
 * process that stopped is taken over once its lease has run out.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import { BillType } from '../../../domain/bills';
import { Code } from '../../../domain/codes';
import { releaseOf } from '../../../domain/economy';
import { SettlementStatus } from '../../../domain/settlement';
import type { Ctx } from '../../context';
import { asyncCommit, bulkRows, withBulkJobSettings } from '../../db/bulk';
import { countedTransaction, type CounterMoves } from '../../db/counterMoves';
import { dateOfDay, DAY_MS, dayOf, dayStart } from '../../db/dayBuckets';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';
import { AppError } from '../../errors';
import { applyCredits, type LedgerCredit } from '../ledger/ledger.service';
import { expireMatches } from '../matches/matches.service';
import { countReleases, type PledgeReleaseCount } from '../pledge/pledge.query';
import { countSeedReleases, type SeedReleaseCount } from '../seeds/seeds.query';

type Db = Kysely<Database> | Transaction<Database>;

export const SettlementMessages = {
  dayNotOver: '只能结算已经结束的日期（北京时间）',
  badDay: '日期格式应为 YYYY-MM-DD',
  leaseLost: '结算租约已被其他进程接管',
  changed: '结算批次中的记录已被修改，本批次未执行',
} as const;

/** The run lost its lease to another process: it stops without marking the day failed. */
export class LeaseLost extends Error {
  constructor(day: number) {
    super(`${SettlementMessages.leaseLost} (${dateOfDay(day)})`);
  }
}

export interface SettleOptions {
  /** Records per transaction (default config.settleBatch). */
  batchSize?: number;
  /** How long the lease lasts without renewal, ms (default config.settleLeaseSeconds). */
  leaseMs?: number;
  /** This process's name in settlement_run.owner (default host:pid:random). */
  owner?: string;
  /** A pause after each committed batch, ms: leaves room for other writers (SQLite has one). */
  pauseMs?: number;
  /** Called after each batch commits. */
  onBatch?: (info: { day: number; kind: 'pledge' | 'seed'; records: number }) => void;
}

export interface SettleResult {
  day: string;
  /** done: settled now; already: settled before; busy: another process holds the day; failed: see error. */
  outcome: 'done' | 'already' | 'busy' | 'failed';
  pledges: number;
  seeds: number;
  matchesCancelled: number;
  error?: string;
}

/** This process's default owner name: the host, the pid and a random part (a restart is another owner). */
const processOwner = `${os.hostname().slice(0, 60)}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** "YYYY-MM-DD" → Asia/Shanghai day number (null when not a real date). */
export function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) return null;
  return ms / DAY_MS;
}

/** Minute of the Asia/Shanghai day of `now`. */
const minuteOfDay = (now: number) => Math.floor((now - dayStart(dayOf(now))) / 60_000);

/**
 * The last day due at `now`: yesterday (Asia/Shanghai) once the day's settle time (`settleAt`, minute of
 * the day) has come, the day before until then.
 */
export const lastDueDay = (now: number, settleAt: number) => dayOf(now) - (minuteOfDay(now) >= settleAt ? 1 : 2);

// ---- the lease ----

type Taken = { taken: true } | { taken: false; done: boolean };

async function takeLease(
  db: Kysely<Database>,
  day: number,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<Taken> {
  const until = now + leaseMs;
  const inserted = await db
    .insertInto('settlement_run')
    .values({ day, status: SettlementStatus.is.running, owner, lease_until: until, started_at: now })
    .onConflict((oc) => oc.column('day').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { taken: true };
  // A failed run, a run whose process stopped (lease over) or our own: take it over.
  const updated = await db
    .updateTable('settlement_run')
    .set({
      status: SettlementStatus.is.running,
      owner,
      lease_until: until,
      started_at: now,
      finished_at: null,
      error: '',
    })
    .where('day', '=', day)
    .where('status', '<>', SettlementStatus.is.done)
    .where((eb) =>
      eb.or([eb('status', '=', SettlementStatus.is.failed), eb('lease_until', '<', now), eb('owner', '=', owner)]),
    )
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return { taken: true };
  const row = await db.selectFrom('settlement_run').select('status').where('day', '=', day).executeTakeFirst();
  return { taken: false, done: Number(row?.status) === SettlementStatus.is.done };
}

/**
 * Renews the lease and adds a batch's totals to the run, as the batch's first write: a conditional
 * UPDATE that also holds the run's row until the batch commits (another process cannot take the day
 * over in between). Throws LeaseLost when the day is no longer ours.
 */
async function renewLease(
  trx: Db,
  day: number,
  owner: string,
  until: number,
  add: Partial<Record<'pledges' | 'pledge_yield' | 'pledge_principal' | 'seeds' | 'seed_energy', bigint>>,
): Promise<void> {
  const count = (col: 'pledges' | 'seeds') => sql<number>`${sql.ref(col)} + ${add[col] ?? 0n}`;
  const sum = (col: 'pledge_yield' | 'pledge_principal' | 'seed_energy') =>
    sql<string>`${sql.ref(col)} + ${add[col] ?? 0n}`;
  const r = await trx
    .updateTable('settlement_run')
    .set({
      lease_until: until,
      pledges: count('pledges'),
      pledge_yield: sum('pledge_yield'),
      pledge_principal: sum('pledge_principal'),
      seeds: count('seeds'),
      seed_energy: sum('seed_energy'),
    })
    .where('day', '=', day)
    .where('owner', '=', owner)
    .where('status', '=', SettlementStatus.is.running)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new LeaseLost(day);
}

// ---- paying records ----

/** One day's release of a record, as written to its release table and credited. */
interface Release {
  recordId: number;
  memberId: number;
  day: number;
  amount: bigint;
  principal: bigint;
}

/** What a batch does to one record: the days it pays and where it ends. */
interface RecordMove {
  id: number;
  memberId: number;
  paidDay: number;
  newPaidDay: number;
  amount: bigint;
  finished: boolean;
}

/** The releases owed to a record from the day after `paidDay` to `day` (never past its end day). */
function owed(
  r: {
    id: number;
    memberId: number;
    daily: bigint;
    total: bigint;
    days: number;
    startDay: number;
    endDay: number;
    paidDay: number;
  },
  day: number,
  principal: bigint,
): { releases: Release[]; move: RecordMove } {
  const last = Math.min(day, r.endDay);
  const releases: Release[] = [];
  let sum = 0n;
  for (let d = r.paidDay + 1; d <= last; d++) {
    const amount = releaseOf({ daily: r.daily, total: r.total }, d, r.startDay, r.days);
    sum += amount;
    releases.push({
      recordId: r.id,
      memberId: r.memberId,
      day: d,
      amount,
      principal: d === r.endDay ? principal : 0n,
    });
  }
  return {
    releases,
    move: {
      id: r.id,
      memberId: r.memberId,
      paidDay: r.paidDay,
      newPaidDay: last,
      amount: sum,
      finished: last === r.endDay,
    },
  };
}

/**
 * Moves a batch's records to their new paid day, adding what they were paid and closing the finished
 * ones, in one statement; only rows still active at the paid day the batch read move. Anything else
 * (a concurrent writer, a bug) rolls the batch back.
 */
async function moveRecords(trx: Db, table: 'pledge' | 'seed', moves: RecordMove[], now: number): Promise<void> {
  const values = bulkRows(
    trx,
    ['bigint', 'integer', 'integer', 'bigint', 'integer'],
    moves.map((m) => [m.id, m.paidDay, m.newPaidDay, m.amount, m.finished ? 1 : 0]),
  );
  const t = sql.table(table);
  const col = (c: string) => sql.ref(`${table}.${c}`);
  const r = await sql`
    with v(id, paid, new_paid, amt, fin) as (${values})
    update ${t} set paid_day = v.new_paid, released = ${col('released')} + v.amt,
      status = case when v.fin = 1 then 2 else ${col('status')} end,
      finished_at = case when v.fin = 1 then cast(${now} as bigint) else ${col('finished_at')} end
    from v
    where ${col('id')} = v.id and ${col('paid_day')} = v.paid and ${col('status')} = 1`.execute(trx);
  if (Number(r.numAffectedRows ?? 0) !== moves.length) throw new AppError(Code.conflict, SettlementMessages.changed);
}

/** Release rows per insert (on SQLite 5 parameters each: well under its limit). */
const INSERT_ROWS = 2000;

/** Writes a batch's release rows (pledge_release with the principal, seed_release without). */
async function insertReleases(trx: Db, table: 'pledge' | 'seed', releases: Release[], now: number): Promise<void> {
  for (let i = 0; i < releases.length; i += INSERT_ROWS) {
    const part = releases.slice(i, i + INSERT_ROWS);
    if (table === 'pledge') {
      const rows = bulkRows(
        trx,
        ['bigint', 'bigint', 'integer', 'bigint', 'bigint'],
        part.map((r) => [r.recordId, r.memberId, r.day, r.amount, r.principal]),
      );
      await sql`with v(pledge_id, member_id, day, amount, principal) as (${rows})
        insert into pledge_release (pledge_id, member_id, day, amount, principal, created_at)
        select pledge_id, member_id, day, amount, principal, cast(${now} as bigint) from v`.execute(trx);
    } else {
      const rows = bulkRows(
        trx,
        ['bigint', 'bigint', 'integer', 'bigint'],
        part.map((r) => [r.recordId, r.memberId, r.day, r.amount]),
      );
      await sql`with v(seed_id, member_id, day, amount) as (${rows})
        insert into seed_release (seed_id, member_id, day, amount, created_at)
        select seed_id, member_id, day, amount, cast(${now} as bigint) from v`.execute(trx);
    }
  }
}

type LeaseTotals = Parameters<typeof renewLease>[4];

/** A batch's transaction: counted (counters written once, at its end), committed asynchronously on PostgreSQL. */
function batchTransaction<T>(
  ctx: Ctx,
  work: (trx: Transaction<Database>, counts: CounterMoves, now: number) => Promise<T>,
): Promise<T> {
  return countedTransaction(ctx.db, async (trx, counts) => {
    await asyncCommit(trx);
    return work(trx, counts, ctx.clock.now());
  });
}

/**
 * A batch's writes, in the order that keeps it exactly once: the lease renewed with the batch's totals
 * (which also holds the run's row), the release rows (UNIQUE record+day), the records moved only from
 * the paid day the batch read, then the ledger credits.
 */
async function writeBatch(
  trx: Db,
  table: 'pledge' | 'seed',
  lease: { day: number; owner: string; until: number; totals: LeaseTotals },
  batch: { releases: Release[]; moves: RecordMove[]; credits: LedgerCredit[] },
  now: number,
): Promise<void> {
  await renewLease(trx, lease.day, lease.owner, lease.until, lease.totals);
  await insertReleases(trx, table, batch.releases, now);
  await moveRecords(trx, table, batch.moves, now);
  await applyCredits(trx, batch.credits, now);
}

async function pledgeBatch(
  ctx: Ctx,
  day: number,
  owner: string,
  opts: Required<Pick<SettleOptions, 'batchSize' | 'leaseMs'>>,
): Promise<number> {
  return batchTransaction(ctx, async (trx, counts, now) => {
    const rows = await trx
      .selectFrom('pledge')
      .select([
        'id',
        'member_id',
        'mode_id',
        money('amount').as('amount'),
        money('released').as('released'),
        money('daily_yield').as('daily_yield'),
        money('total_yield').as('total_yield'),
        'days',
        'start_day',
        'end_day',
        'paid_day',
      ])
      .where('status', '=', 1)
      .where('paid_day', '<', day)
      .orderBy('paid_day')
      .orderBy('id')
      .limit(opts.batchSize)
      .execute();
    if (rows.length === 0) return 0;
    const releases: Release[] = [];
    const moves: RecordMove[] = [];
    const counted: PledgeReleaseCount[] = [];
    for (const row of rows) {
      const amount = BigInt(row.amount);
      const endDay = Number(row.end_day);
      const o = owed(
        {
          id: Number(row.id),
          memberId: Number(row.member_id),
          daily: BigInt(row.daily_yield),
          total: BigInt(row.total_yield),
          days: Number(row.days),
          startDay: Number(row.start_day),
          endDay,
          paidDay: Number(row.paid_day),
        },
        day,
        amount,
      );
      releases.push(...o.releases);
      moves.push(o.move);
      let released = BigInt(row.released);
      for (const r of o.releases) {
        released += r.amount;
        counted.push({
          memberId: Number(row.member_id),
          modeId: Number(row.mode_id),
          day: r.day,
          amount: r.amount,
          principal: r.principal,
          pledgeAmount: amount,
          released,
          days: Number(row.days),
          finished: r.day === endDay,
        });
      }
    }
    let yieldSum = 0n;
    let principalSum = 0n;
    const credits: LedgerCredit[] = [];
    for (const r of releases) {
      yieldSum += r.amount;
      principalSum += r.principal;
      const ref = { kind: 'pledge', id: r.recordId };
      if (r.amount > 0n)
        credits.push({
          memberId: r.memberId,
          asset: 'LZ',
          amount: r.amount,
          type: BillType.pledgeIncome,
          ref,
          remark: dateOfDay(r.day),
        });
      if (r.principal > 0n)
        credits.push({
          memberId: r.memberId,
          asset: 'LZ',
          amount: r.principal,
          type: BillType.pledgeRedeem,
          ref,
          remark: dateOfDay(r.day),
        });
    }
    const totals = { pledges: BigInt(moves.length), pledge_yield: yieldSum, pledge_principal: principalSum };
    await writeBatch(
      trx,
      'pledge',
      { day, owner, until: now + opts.leaseMs, totals },
      { releases, moves, credits },
      now,
    );
    // pledge_stat and pledge_release_stat, queued on the transaction's moves (applied last).
    await countReleases(trx, counted, counts);
    return moves.length;
  });
}

async function seedBatch(
  ctx: Ctx,
  day: number,
  owner: string,
  opts: Required<Pick<SettleOptions, 'batchSize' | 'leaseMs'>>,
): Promise<number> {
  return batchTransaction(ctx, async (trx, counts, now) => {
    const rows = await trx
      .selectFrom('seed')
      .select([
        'id',
        'member_id',
        'source',
        money('total_energy').as('total_energy'),
        money('daily_energy').as('daily_energy'),
        'days',
        'start_day',
        'end_day',
        'paid_day',
      ])
      .where('status', '=', 1)
      .where('paid_day', '<', day)
      .orderBy('paid_day')
      .orderBy('id')
      .limit(opts.batchSize)
      .execute();
    if (rows.length === 0) return 0;
    const releases: Release[] = [];
    const moves: RecordMove[] = [];
    const counted: SeedReleaseCount[] = [];
    for (const row of rows) {
      const total = BigInt(row.total_energy);
      const endDay = Number(row.end_day);
      const o = owed(
        {
          id: Number(row.id),
          memberId: Number(row.member_id),
          daily: BigInt(row.daily_energy),
          total,
          days: Number(row.days),
          startDay: Number(row.start_day),
          endDay,
          paidDay: Number(row.paid_day),
        },
        day,
        0n,
      );
      releases.push(...o.releases);
      moves.push(o.move);
      for (const r of o.releases) {
        counted.push({
          memberId: Number(row.member_id),
          source: Number(row.source),
          day: r.day,
          amount: r.amount,
          totalEnergy: total,
          days: Number(row.days),
          matured: r.day === endDay,
        });
      }
    }
    let energy = 0n;
    const credits: LedgerCredit[] = [];
    for (const r of releases) {
      energy += r.amount;
      if (r.amount > 0n)
        credits.push({
          memberId: r.memberId,
          asset: 'ENERGY',
          amount: r.amount,
          type: BillType.seedRelease,
          ref: { kind: 'seed', id: r.recordId },
          remark: dateOfDay(r.day),
        });
    }
    const totals = { seeds: BigInt(moves.length), seed_energy: energy };
    await writeBatch(trx, 'seed', { day, owner, until: now + opts.leaseMs, totals }, { releases, moves, credits }, now);
    // seed_stat, seed_member_stat and seed_release_stat, queued on the transaction's moves (applied last).
    await countSeedReleases(trx, counted, counts);
    return moves.length;
  });
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

/** The error text kept in the run's row (500 characters at most). */
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/**
 * Settles Asia/Shanghai day `day` (a day that is over). Returns without doing anything when the day is
 * already settled or another process holds it; records a failure in the run's row (status 3, retried
 * by the next run) and answers it as `outcome: 'failed'`.
 */
export async function settleDay(ctx: Ctx, day: number, opts: SettleOptions = {}): Promise<SettleResult> {
  if (!Number.isInteger(day)) throw new AppError(Code.badInput, SettlementMessages.badDay);
  if (day >= dayOf(ctx.clock.now())) throw new AppError(Code.badInput, SettlementMessages.dayNotOver);
  const owner = opts.owner ?? processOwner;
  const o = {
    batchSize: opts.batchSize ?? ctx.config.settleBatch,
    leaseMs: opts.leaseMs ?? ctx.config.settleLeaseSeconds * 1000,
  };
  const result: SettleResult = { day: dateOfDay(day), outcome: 'done', pledges: 0, seeds: 0, matchesCancelled: 0 };
  const lease = await takeLease(ctx.db, day, owner, ctx.clock.now(), o.leaseMs);
  if (!lease.taken) return { ...result, outcome: lease.done ? 'already' : 'busy' };
  try {
    await withBulkJobSettings(ctx.db, async () => {
      for (const kind of ['pledge', 'seed'] as const) {
        for (;;) {
          const n = await (kind === 'pledge' ? pledgeBatch : seedBatch)(ctx, day, owner, o);
          if (n === 0) break;
          if (kind === 'pledge') result.pledges += n;
          else result.seeds += n;
          opts.onBatch?.({ day, kind, records: n });
          await pause(opts.pauseMs ?? 0);
        }
      }
    });
    // Unpaid matches whose payment time ran out by the end of the day (the per-minute tick cancels
    // them as they expire; this catches what it missed while no server ran).
    const { cancelled } = await expireMatches(ctx, dayStart(day + 1));
    result.matchesCancelled = cancelled;
    const done = await ctx.db
      .updateTable('settlement_run')
      .set({
        status: SettlementStatus.is.done,
        finished_at: ctx.clock.now(),
        matches_cancelled: sql`matches_cancelled + ${cancelled}`,
        error: '',
      })
      .where('day', '=', day)
      .where('owner', '=', owner)
      .where('status', '=', SettlementStatus.is.running)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw new LeaseLost(day);
    return result;
  } catch (err) {
    if (err instanceof LeaseLost) return { ...result, outcome: 'busy', error: err.message };
    const error = errorText(err);
    ctx.log.error({ err, day: dateOfDay(day) }, 'settlement run failed');
    await ctx.db
      .updateTable('settlement_run')
      .set({ status: SettlementStatus.is.failed, finished_at: ctx.clock.now(), error })
      .where('day', '=', day)
      .where('owner', '=', owner)
      .where('status', '=', SettlementStatus.is.running)
      .execute()
      .catch((e: unknown) => ctx.log.error({ err: e }, 'could not record the failed settlement run'));
    return { ...result, outcome: 'failed', error };
  }
}

/** The oldest day a record is still owed (the day after the smallest paid_day of an active record). */
async function firstOwedDay(db: Db): Promise<number | null> {
  const [p, s] = await Promise.all([
    db
      .selectFrom('pledge')
      .select((eb) => eb.fn.min('paid_day').as('d'))
      .where('status', '=', 1)
      .executeTakeFirst(),
    db
      .selectFrom('seed')
      .select((eb) => eb.fn.min('paid_day').as('d'))
      .where('status', '=', 1)
      .executeTakeFirst(),
  ]);
  const days = [p?.d, s?.d].filter((d) => d !== null && d !== undefined).map(Number);
  return days.length ? Math.min(...days) + 1 : null;
}

export interface SettleDueOptions extends SettleOptions {
  /** Minute of the Asia/Shanghai day from which yesterday is due (default config.settleAt; 0: at once). */
  settleAt?: number;
  /** A failed day is retried once this long has passed since it failed (default 0: at once). */
  retryAfterMs?: number;
}

/** The days due at `now`, in order: every day not yet settled up to the last due day. */
export async function dueDays(ctx: Ctx, now: number, settleAt = ctx.config.settleAt): Promise<number[]> {
  const last = lastDueDay(now, settleAt);
  const [open, max] = await Promise.all([
    ctx.db
      .selectFrom('settlement_run')
      .select('day')
      .where('status', '<>', SettlementStatus.is.done)
      .where('day', '<=', last)
      .orderBy('day')
      .execute(),
    ctx.db
      .selectFrom('settlement_run')
      .select((eb) => eb.fn.max('day').as('d'))
      .executeTakeFirst(),
  ]);
  let from: number;
  if (max?.d !== null && max?.d !== undefined) from = Number(max.d) + 1;
  else from = Math.min((await firstOwedDay(ctx.db)) ?? last, last);
  const days = new Set(open.map((r) => Number(r.day)));
  for (let d = from; d <= last; d++) days.add(d);
  return [...days].sort((a, b) => a - b);
}

/**
 * Settles every day due at `now`, oldest first (missed days are caught up in order). Stops at the first
 * day that fails or that another process holds: the days after it wait for it.
 */
export async function settleDue(ctx: Ctx, now = ctx.clock.now(), opts: SettleDueOptions = {}): Promise<SettleResult[]> {
  const out: SettleResult[] = [];
  for (const day of await dueDays(ctx, now, opts.settleAt ?? ctx.config.settleAt)) {
    if (opts.retryAfterMs) {
      const prev = await ctx.db
        .selectFrom('settlement_run')
        .select(['status', 'finished_at'])
        .where('day', '=', day)
        .executeTakeFirst();
      if (Number(prev?.status) === SettlementStatus.is.failed && Number(prev?.finished_at) + opts.retryAfterMs > now)
        break;
    }
    const r = await settleDay(ctx, day, opts);
    out.push(r);
    if (r.outcome === 'failed' || r.outcome === 'busy') break;
  }
  return out;
}
