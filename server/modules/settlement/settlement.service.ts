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
import { sql, type Kysely, type Transaction } from 'kysely';
import { Code } from '../../../domain/codes';
import { SettlementMessages, SettlementStatus } from '../../../domain/settlement';
import type { Ctx } from '../../context';
import { withBulkJobSettings } from '../../db/bulk';
import { dateOfDay, DAY_MS, dayOf, dayStart } from '../../db/dayBuckets';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import { expireMatches } from '../matches/matches.service';
import { pledgeBatch, seedBatch } from './settlement.batches';
import { LeaseLost, processOwner, takeLease } from './settlement.lease';

type Db = Kysely<Database> | Transaction<Database>;

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
