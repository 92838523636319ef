/**
 * The settlement run's lease (settlement.service.ts says why): the run's row in settlement_run, taken
 * with a conditional INSERT/UPDATE and renewed as every batch's first write, so that of several
 * processes on one database exactly one settles a given day.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import { SettlementMessages, SettlementStatus } from '../../../domain/settlement';
import { dateOfDay } from '../../db/dayBuckets';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** The run lost its lease to another process: it stops without marking the day failed. */
export class LeaseLost extends Error {
  constructor(day: number) {
    super(`${SettlementMessages.leaseLost} (${dateOfDay(day)})`);
  }
}

/** This process's default owner name: the host, the pid and a random part (a restart is another owner). */
export const processOwner = `${os.hostname().slice(0, 60)}:${process.pid}:${randomUUID().slice(0, 8)}`;

type Taken = { taken: true } | { taken: false; done: boolean };

export async function takeLease(
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
export async function renewLease(
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

/** What a batch adds to its run's totals. */
export type LeaseTotals = Parameters<typeof renewLease>[4];
