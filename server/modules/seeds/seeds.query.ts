/**
 * The seeds module's public query API for the settlement job (the only file of seeds/, besides its
 * services, that other modules import): the counter moves of a batch of releases, and the check
 * that the seed counters match their tables.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import {
  moveSeedReleaseCounters,
  seedReleaseStatViolations,
  seedStatViolations,
  type SeedReleaseCount,
} from './seeds.repository';

type Db = Kysely<Database> | Transaction<Database>;

export type { SeedReleaseCount };

/**
 * Moves the seed counters for a settlement batch's releases, in the caller's transaction — call it as
 * the batch's last write (it takes the hot counter rows): seed_release_stat (per day: n, amount_sum)
 * and seed_stat (per source × status: n, total_sum, released_sum; matured seeds move 1 → 2). A few
 * statements per batch whatever its size; an empty batch does nothing.
 */
export function countSeedReleases(trx: Db, rows: readonly SeedReleaseCount[]): Promise<void> {
  return moveSeedReleaseCounters(trx, rows);
}

/** Where seed_stat or seed_release_stat differ from the seeds and releases (both empty when consistent). */
export async function seedCounterViolations(db: Db) {
  const [seeds, releases] = await Promise.all([seedStatViolations(db), seedReleaseStatViolations(db)]);
  return { seeds, releases };
}
