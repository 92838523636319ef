/**
 * The settlement job's public read API: the pledge and seed lists answer the latest run beside their
 * rows (`lastRun`), so an operator sees a failed or unfinished day on the page, not only in a log.
 */
import type { Kysely, Transaction } from 'kysely';
import { formatAsset } from '../../../domain/money';
import { SETTLEMENT_STALLED_TEXT, SettlementStatus } from '../../../domain/settlement';
import { dateOfDay } from '../../db/dayBuckets';
import type { Database } from '../../db/schema';
import { money } from '../../db/sql';
import type { SettlementRunView } from './settlement.schema';

/** The run's schemas, for the lists that carry `lastRun` (other modules import this file, not the schema). */
export { LastRun, SettlementRunView } from './settlement.schema';

type Db = Kysely<Database> | Transaction<Database>;

/** The `n` latest runs (by day, newest first) as the pages show them. */
export async function lastRuns(db: Db, n = 1, now = Date.now()): Promise<SettlementRunView[]> {
  const rows = await db
    .selectFrom('settlement_run')
    .select([
      'day',
      'status',
      'lease_until',
      'started_at',
      'finished_at',
      'pledges',
      money('pledge_yield').as('pledge_yield'),
      money('pledge_principal').as('pledge_principal'),
      'seeds',
      money('seed_energy').as('seed_energy'),
      'matches_cancelled',
      'error',
    ])
    .orderBy('day', 'desc')
    .limit(n)
    .execute();
  return rows.map((r) => {
    const status = Number(r.status) as SettlementStatus;
    const stalled = status === SettlementStatus.is.running && Number(r.lease_until) < now;
    return {
      day: dateOfDay(Number(r.day)),
      status,
      statusText: stalled ? SETTLEMENT_STALLED_TEXT : SettlementStatus.label(status),
      startedAt: Number(r.started_at),
      finishedAt: r.finished_at === null ? null : Number(r.finished_at),
      pledges: Number(r.pledges),
      pledgeYield: formatAsset(r.pledge_yield, 'LZ'),
      pledgePrincipal: formatAsset(r.pledge_principal, 'LZ'),
      seeds: Number(r.seeds),
      seedEnergy: formatAsset(r.seed_energy, 'ENERGY'),
      matchesCancelled: Number(r.matches_cancelled),
      error: r.error,
    };
  });
}

/** The latest run, or null before the first: the `lastRun` of the pledge and seed lists. */
export async function lastRun(db: Db, now = Date.now()): Promise<SettlementRunView | null> {
  return (await lastRuns(db, 1, now))[0] ?? null;
}
