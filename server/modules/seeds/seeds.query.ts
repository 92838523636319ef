/**
 * The seeds module's public query API for the settlement job (the only file of seeds/, besides its
 * services, that other modules import): the counter moves of a batch of releases, and the check
 * that the seed counters match their tables.
 */
import type { Kysely, Transaction } from 'kysely';
import { queueOrApply, type CounterMoves } from '../../db/counterMoves';
import type { Database } from '../../db/schema';
import {
  queueSeedReleaseCounts,
  rebuildSeedStats,
  seedCounterViolations,
  type SeedReleaseCount,
} from './seeds.counters';

type Db = Kysely<Database> | Transaction<Database>;

export { rebuildSeedStats, seedCounterViolations };
export type { SeedReleaseCount };

/**
 * Moves the seed counters for a settlement batch's releases, in the caller's transaction — call it as
 * the batch's last write (it takes the hot counter rows): seed_stat (per source × status: released
 * grows; matured seeds move 1 → 2), seed_member_stat (the same per member, with the count of
 * releases) and seed_release_stat (per day: n, amount_sum). A few statements per batch whatever its
 * size; an empty batch does nothing.
 *
 * `counts`: when the caller already has a CounterMoves it applies itself, the moves are queued there
 * instead (merged with its other moves, applied by the caller).
 */
export async function countSeedReleases(
  trx: Db,
  rows: readonly SeedReleaseCount[],
  counts?: CounterMoves,
): Promise<void> {
  if (rows.length) await queueOrApply(counts, (c) => queueSeedReleaseCounts(trx, c, rows));
}
