/** Login, logout and the menu. */
import type { Kysely, Transaction } from 'kysely';
import { Code, Messages } from '../../../domain/codes';
import { buildMenu, type MenuEntry } from '../../../domain/permissions';
import type { Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { AppError, badInput } from '../../errors';
import { hashPassword, verifyPassword } from '../../passwords';
import { writeOpLog } from '../oplog/oplog.repository';
import { hashToken, newToken, type SessionManager } from './session.service';

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
export const ACCOUNT_KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
/** A day without any try and the account's count starts over. */
export const ACCOUNT_FORGET_MS = 24 * 3600_000;
/** The account's row in login_attempt: no client address is ever '*'. */
export const ACCOUNT_ROW = '*';
/** The op-log code of "the account limit holds" (not a permission: nobody grants it). */
export const THROTTLE_LOG_CODE = 'login:throttle';

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

/** "请45秒后再试" / "请15分钟后再试": when the account takes a try again. */
export const accountThrottledMessage = (waitMs: number) => `该账号登录失败次数过多，请${waitText(waitMs)}后再试`;

/** Verifying against this keeps an unknown user name as slow as a wrong password. */
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword('timing-equaliser-0'));

/**
 * Counts this attempt for username+ip before the password is checked and returns the count in the
 * current window (one atomic upsert, so several processes sharing a database agree). Counting first
 * means parallel attempts cannot all pass a check made before any of their failures is recorded;
 * a success deletes the row, so a good login leaves nothing behind. The window starts at the first
 * failure and a new one starts with the first attempt after it has passed.
 */
async function countAttempt(db: Kysely<Database>, username: string, ip: string, now: number): Promise<number> {
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

/** Whether the manager logged in from this address lately: his own address never waits for the account. */
async function isKnownAddress(db: Kysely<Database>, managerId: number, ip: string, now: number): Promise<boolean> {
  const hit = await db
    .selectFrom('session')
    .select('id')
    .where('manager_id', '=', managerId)
    .where('ip', '=', ip)
    .where('created_at', '>=', now - ACCOUNT_KNOWN_ADDRESS_MS)
    .limit(1)
    .executeTakeFirst();
  return hit !== undefined;
}

export async function login(
  ctx: Ctx,
  input: { username: string; password: string; ip: string; userAgent: string },
): Promise<{ token?: string; username: string; challenge?: string }> {
  const username = input.username.trim();
  const now = ctx.clock.now();
  const peer = input.ip.slice(0, 64);
  const ip = peer && peer !== ACCOUNT_ROW ? peer : 'unknown';
  if ((await countAttempt(ctx.db, username, ip, now)) > LOGIN_MAX_FAILURES) {
    throw new AppError(Code.tooMany, Messages.tooManyLogins);
  }
  const manager = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username', 'password_hash', 'status', 'totp_on'])
    .where('username', '=', username)
    .executeTakeFirst();
  // Unknown user names are limited alike: the answers must not tell which names exist.
  const known = manager ? await isKnownAddress(ctx.db, manager.id, ip, now) : false;
  const claim = known ? undefined : await claimAccountTry(ctx.db, username, now);
  if (claim && 'retryAt' in claim) throw new AppError(Code.tooMany, accountThrottledMessage(claim.retryAt - now));
  const valid = await verifyPassword(manager?.password_hash ?? (await dummy()), input.password);
  if (!manager || !valid) {
    if (manager && claim && claim.failures >= ACCOUNT_FREE_FAILURES) {
      await writeOpLog(
        ctx.db,
        { managerId: manager.id, username: manager.username, ip },
        {
          code: THROTTLE_LOG_CODE,
          target: `manager#${manager.id} (${manager.username})`,
          summary:
            `登录失败累计${claim.failures}次（来自 ${ip}），该账号的登录已限速：` +
            `每${waitText(accountDelay(claim.failures))}只接受一次尝试`,
        },
        now,
      );
    }
    throw badInput(Messages.badCredentials); // already counted
  }
  if (manager.status !== 1) throw new AppError(Code.forbidden, '该账号已被禁用，请联系管理员');
  // The password is right: its failures are forgotten, and a manager with an authenticator goes on to
  // the code step (a challenge, not a session).
  if (manager.totp_on === 1)
    return { username: manager.username, challenge: await openChallenge(ctx, manager.id, manager.username, ip) };
  const token = await openSession(ctx, { managerId: manager.id, ip, userAgent: input.userAgent, mfaAt: null });
  return { token, username: manager.username };
}

/** How long the code step may follow the password step, and how many wrong codes one challenge takes. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_FAILURES = 5;

/** The password step's answer for a manager with an authenticator: a one-time ticket to the code step. */
async function openChallenge(ctx: Ctx, managerId: number, username: string, ip: string): Promise<string> {
  const token = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    await forgetPasswordFailures(trx, username, ip);
    // The manager's spent and stale tickets go as a new one comes (the table stays small).
    await trx
      .deleteFrom('login_challenge')
      .where('manager_id', '=', managerId)
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('created_at', '<', ctx.clock.now() - CHALLENGE_TTL_MS)]))
      .execute();
    await trx
      .insertInto('login_challenge')
      .values({ token_hash: hashToken(token), manager_id: managerId, ip, created_at: ctx.clock.now(), used_at: null })
      .execute();
  });
  return token;
}

/** Forgets the password failures of username (from ip and for the account) once the password is right. */
export async function forgetPasswordFailures(
  db: Kysely<Database> | Transaction<Database>,
  username: string,
  ip: string,
) {
  await db.deleteFrom('login_attempt').where('username', '=', username).where('ip', 'in', [ip, ACCOUNT_ROW]).execute();
}

/**
 * A new session for a manager whose password (and code, when he has an authenticator) was right:
 * the oldest sessions past the limit end, and this login becomes 最近登录 (the one before, 上次登录).
 */
export async function openSession(
  ctx: Ctx,
  s: { managerId: number; ip: string; userAgent: string; mfaAt: number | null },
): Promise<string> {
  const now = ctx.clock.now();
  const token = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    const { username } = await trx
      .selectFrom('manager')
      .select('username')
      .where('id', '=', s.managerId)
      .executeTakeFirstOrThrow();
    await forgetPasswordFailures(trx, username, s.ip);
    await trx
      .insertInto('session')
      .values({
        manager_id: s.managerId,
        token_hash: hashToken(token),
        ip: s.ip,
        user_agent: s.userAgent.slice(0, 300),
        created_at: now,
        last_seen_at: now,
        mfa_at: s.mfaAt,
      })
      .execute();
    await endSessionsPastLimit(trx, s.managerId, ctx.config.maxSessions, now);
    await trx
      .updateTable('manager')
      .set((eb) => ({
        // The login this one replaces becomes 上次登录 (SET reads the row as it was, on both databases).
        prev_login_at: eb.ref('last_login_at'),
        prev_login_ip: eb.ref('last_login_ip'),
        last_login_at: now,
        last_login_ip: s.ip,
      }))
      .where('id', '=', s.managerId)
      .execute();
  });
  return token;
}

/** Logging in past the session limit ends the oldest sessions; they get 302 ("logged in elsewhere"). */
async function endSessionsPastLimit(trx: Transaction<Database>, managerId: number, limit: number, now: number) {
  const live = await trx
    .selectFrom('session')
    .select('id')
    .where('manager_id', '=', managerId)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  const excess = live.slice(limit).map((s) => s.id);
  if (excess.length) {
    await trx
      .updateTable('session')
      .set({ revoked_at: now, revoked_reason: 'ended' })
      .where('id', 'in', excess)
      .execute();
  }
}

export async function logout(ctx: Ctx, sessionId: number): Promise<void> {
  await ctx.db
    .updateTable('session')
    .set({ revoked_at: ctx.clock.now(), revoked_reason: 'logout' })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function menuFor(manager: SessionManager): MenuEntry[] {
  return buildMenu((code) => manager.codes.has(code));
}
