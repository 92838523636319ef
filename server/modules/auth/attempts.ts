/**
 * Counting tries, in the database so every server process agrees (issue 10's login throttle, and the
 * second factor's wrong codes):
 * - per user name and address (countAttempt): at most LOGIN_MAX_FAILURES in LOGIN_WINDOW_MS;
 * - per account across addresses (claimAccountTry, the row ip = ACCOUNT_ROW): free tries, then one
 *   try per delay that doubles, forgotten after a quiet day. The codes use the same mechanism with
 *   their own numbers and table (TryPolicy).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_MAX_FAILURES = 5;

/**
 * Per account, across addresses: an attacker with many addresses gets ACCOUNT_FREE_FAILURES tries,
 * then one try per delay, the delay doubling from ACCOUNT_FIRST_DELAY_MS to ACCOUNT_MAX_DELAY_MS. A
 * success anywhere resets it, so nobody can lock the real manager out for good: at worst he waits
 * the cap once, and from an address he logged in from before (ACCOUNT_KNOWN_ADDRESS_MS) he does not
 * wait at all (the per-address limit still holds there).
 */
export const ACCOUNT_FREE_FAILURES = 10;
export const ACCOUNT_FIRST_DELAY_MS = 30_000;
export const ACCOUNT_MAX_DELAY_MS = 15 * 60_000;
/** A day without any try and the account's count starts over. */
export const ACCOUNT_FORGET_MS = 24 * 3600_000;
/** The account's row in login_attempt: no client address is ever '*'. */
export const ACCOUNT_ROW = '*';

/** How long the account waits after `failures` tries since the last success. */
export function accountDelay(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_MAX_DELAY_MS, ACCOUNT_FIRST_DELAY_MS * 2 ** (failures - ACCOUNT_FREE_FAILURES));
}

/** How many tries are free and how long each one after them waits: the account's or the code's. */
export interface TryPolicy {
  free: number;
  delay(failures: number): number;
  /** Where the counts live (same columns): the password login's table, or the codes' own. */
  table: 'login_attempt' | 'totp_attempt';
}
const ACCOUNT_POLICY: TryPolicy = { free: ACCOUNT_FREE_FAILURES, delay: accountDelay, table: 'login_attempt' };

/** "45秒", "15分钟": a wait as a person reads it, rounded up. */
export function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 60 ? `${s}秒` : `${Math.ceil(s / 60)}分钟`;
}

/**
 * Counts this attempt for username+ip before the password is checked and returns the count in the
 * current window (one atomic upsert, so several processes sharing a database agree). Counting first
 * means parallel attempts cannot all pass a check made before any of their failures is recorded;
 * a success deletes the row, so a good login leaves nothing behind. The window starts at the first
 * failure and a new one starts with the first attempt after it has passed.
 */
export async function countAttempt(db: Kysely<Database>, username: string, ip: string, now: number): Promise<number> {
  const stale = now - LOGIN_WINDOW_MS;
  const row = await db
    .insertInto('login_attempt')
    .values({ username, ip, window_start: now, failures: 1 })
    .onConflict((oc) =>
      oc.columns(['username', 'ip']).doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('login_attempt.window_start', '<=', stale)
          .then(1)
          .else(eb('login_attempt.failures', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('login_attempt.window_start', '<=', stale)
          .then(now)
          .else(eb.ref('login_attempt.window_start'))
          .end(),
      })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

/**
 * Claims a try for the account (the row username+'*'): the count since the last success and the
 * time of the last try, in the database so every server process sees them. Below the free tries
 * one atomic update claims; in the delay, a compare-and-set on the row read claims the one try per
 * slot, so parallel attempts cannot all pass. Returns the time a try is accepted again when refused.
 */
export async function claimAccountTry(
  db: Kysely<Database>,
  username: string,
  now: number,
  policy: TryPolicy = ACCOUNT_POLICY,
): Promise<{ failures: number } | { retryAt: number }> {
  const { free: freeTries, delay } = policy;
  // Both tables have login_attempt's columns; Kysely is told the one name, the query names the other.
  const table = policy.table as 'login_attempt';
  const forgotten = now - ACCOUNT_FORGET_MS;
  // A few rounds: a parallel attempt may make the row, or move it, between our statements; while the
  // account is still within its free tries such a race must never turn into a refusal.
  for (let round = 0; round < 4; round++) {
    const free = await db
      .updateTable(table)
      .set((eb) => ({
        failures: eb
          .case()
          .when('window_start', '<=', forgotten)
          .then(1)
          .else(eb('failures', '+', 1))
          .end(),
        window_start: now,
      }))
      .where('username', '=', username)
      .where('ip', '=', ACCOUNT_ROW)
      .where((eb) => eb.or([eb('failures', '<', freeTries), eb('window_start', '<=', forgotten)]))
      .returning('failures')
      .executeTakeFirst();
    if (free) return { failures: Number(free.failures) };
    const cur = await db
      .selectFrom(table)
      .select(['failures', 'window_start'])
      .where('username', '=', username)
      .where('ip', '=', ACCOUNT_ROW)
      .executeTakeFirst();
    if (!cur) {
      const made = await db
        .insertInto(table)
        .values({ username, ip: ACCOUNT_ROW, window_start: now, failures: 1 })
        .onConflict((oc) => oc.columns(['username', 'ip']).doNothing())
        .returning('failures')
        .executeTakeFirst();
      if (made) return { failures: 1 };
      continue; // another attempt made the row meanwhile: claim against it
    }
    const failures = Number(cur.failures);
    const last = Number(cur.window_start);
    // The row was made (or forgotten) after our update looked: the free update applies again.
    if (failures < freeTries || last <= forgotten) continue;
    const retryAt = last + delay(failures);
    if (now < retryAt) return { retryAt };
    const taken = await db
      .updateTable(table)
      .set({ failures: failures + 1, window_start: now })
      .where('username', '=', username)
      .where('ip', '=', ACCOUNT_ROW)
      .where('failures', '=', failures)
      .where('window_start', '=', last)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { failures: failures + 1 };
    // A parallel attempt took this slot.
    return { retryAt: now + delay(failures + 1) };
  }
  return { retryAt: now + ACCOUNT_FIRST_DELAY_MS };
}

/** Forgets the password failures of username (from ip and for the account) once the password is right. */
export async function forgetPasswordFailures(
  db: Kysely<Database> | Transaction<Database>,
  username: string,
  ip: string,
) {
  await db.deleteFrom('login_attempt').where('username', '=', username).where('ip', 'in', [ip, ACCOUNT_ROW]).execute();
}
