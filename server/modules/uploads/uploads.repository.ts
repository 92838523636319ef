/** All SQL on upload tickets. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertTicket(
  db: Db,
  v: { key: string; tokenHash: string; managerId: number; maxSize: number; expiresAt: number; now: number },
): Promise<void> {
  await db
    .insertInto('upload')
    .values({
      key: v.key,
      token_hash: v.tokenHash,
      manager_id: v.managerId,
      max_size: v.maxSize,
      expires_at: v.expiresAt,
      created_at: v.now,
    })
    .execute();
}

/** Takes the ticket once: only an unused one before its expiry; undefined otherwise. */
export function claimTicket(db: Db, tokenHash: string, now: number) {
  return db
    .updateTable('upload')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'key', 'max_size'])
    .executeTakeFirst();
}

/** Why a ticket could not be taken (used or expired), undefined when there is no such ticket. */
export function ticketState(db: Db, tokenHash: string) {
  return db.selectFrom('upload').select(['used_at', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function recordStored(
  db: Db,
  id: number,
  v: { size: number; type: string; width: number; height: number },
): Promise<void> {
  await db
    .updateTable('upload')
    .set({ size: v.size, mime: v.type, width: v.width, height: v.height })
    .where('id', '=', id)
    .execute();
}
