/**
 * The pledge module's public query API for the settlement job (the only file of pledge/, besides its
 * services, that other modules import): the counter descriptors, the counter moves of a batch of
 * releases, and the check that the pledge counters match their tables.
 */
import type { Kysely, Transaction } from 'kysely';
import { queueOrApply, type CounterMoves } from '../../db/counterMoves';
import type { Database } from '../../db/schema';
import {
  PLEDGE_RELEASE_STAT,
  PLEDGE_STAT,
  pledgeCounterViolations,
  queueReleaseCounts,
  rebuildPledgeStats,
  type PledgeReleaseCount,
} from './pledge.counters';

type Db = Kysely<Database> | Transaction<Database>;

export { PLEDGE_RELEASE_STAT, PLEDGE_STAT, pledgeCounterViolations, rebuildPledgeStats };
export type { PledgeReleaseCount };

/**
 * Moves the pledge counters for a settlement batch's releases, in the caller's transaction — call it
 * after the batch inserted its pledge_release rows and updated its pledges, as the batch's last writes
 * (it takes the hot counter rows): pledge_stat (per mode × status: released_sum grows; finished pledges
 * move 1 → 2 with their amount and released) and pledge_release_stat (per day: n, amount_sum,
 * principal_sum). A few statements per batch whatever its size; an empty batch does nothing.
 *
 * `counts`: when the caller already has a CounterMoves it applies itself, the moves are queued there
 * instead (merged with its other moves, applied by the caller).
 */
export async function countReleases(
  trx: Db,
  rows: readonly PledgeReleaseCount[],
  counts?: CounterMoves,
): Promise<void> {
  if (rows.length) await queueOrApply(counts, (c) => queueReleaseCounts(trx, c, rows));
}
