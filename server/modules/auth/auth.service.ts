/** Login, logout and the menu. */
import type { Kysely, Transaction } from 'kysely';
import { Code, Messages } from '../../../domain/codes';
import { buildMenu, type MenuEntry } from '../../../domain/permissions';
import type { Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { AppError, badInput } from '../../errors';
import { hashPassword, verifyPassword } from '../../passwords';
import { writeOpLog } from '../oplog/oplog.repository';
import {
  ACCOUNT_ROW,
  claimAccountTry,
  countAttempt,
  forgetPasswordFailures,
  LOGIN_MAX_FAILURES,
  waitText,
  accountDelay,
  ACCOUNT_FREE_FAILURES,
} from './attempts';
import { hashToken, newToken, type SessionManager } from './session.service';
import { checkProof, Msg as TotpMsg, type Proof } from './totp.service';

export const ACCOUNT_KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;

/** The op-log code of "the account limit holds" (not a permission: nobody grants it). */
export const THROTTLE_LOG_CODE = 'login:throttle';

/** "请45秒后再试" / "请15分钟后再试": when the account takes a try again. */
export const accountThrottledMessage = (waitMs: number) => `该账号登录失败次数过多，请${waitText(waitMs)}后再试`;

/** Verifying against this keeps an unknown user name as slow as a wrong password. */
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword('timing-equaliser-0'));

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

/**
 * The login's code step: the password step's challenge (once, within CHALLENGE_TTL_MS, at most
 * CHALLENGE_MAX_FAILURES wrong codes) and a code or recovery code give the session; the code counts
 * as this session's last verification.
 */
export async function loginWithCode(
  ctx: Ctx,
  input: Proof & { challenge: string; ip: string; userAgent: string },
): Promise<{ token: string; username: string }> {
  const now = ctx.clock.now();
  const found = await ctx.db
    .selectFrom('login_challenge as c')
    .innerJoin('manager as m', 'm.id', 'c.manager_id')
    .select(['c.id', 'c.manager_id', 'm.username', 'm.status', 'm.totp_on'])
    .where('c.token_hash', '=', hashToken(input.challenge))
    .where('c.used_at', 'is', null)
    .where('c.created_at', '>', now - CHALLENGE_TTL_MS)
    .where('c.failures', '<', CHALLENGE_MAX_FAILURES)
    .executeTakeFirst();
  if (!found || found.totp_on !== 1) throw badInput(TotpMsg.challengeGone);
  if (found.status !== 1) throw new AppError(Code.forbidden, '该账号已被禁用，请联系管理员');
  // The challenge is taken before the proof is checked: a second proof sent at the same time (a code
  // and a recovery code, or more guesses than the challenge allows) finds it taken.
  const taken = await ctx.db
    .updateTable('login_challenge')
    .set({ used_at: now })
    .where('id', '=', found.id)
    .where('used_at', 'is', null)
    .where('failures', '<', CHALLENGE_MAX_FAILURES)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw badInput(TotpMsg.challengeGone);
  const ip = input.ip.slice(0, 64) || 'unknown';
  const actor = { managerId: Number(found.manager_id), username: found.username, ip };
  try {
    await checkProof(ctx, actor, input, '登录');
  } catch (err) {
    // Given back, one failure more.
    await ctx.db
      .updateTable('login_challenge')
      .set((eb) => ({ used_at: null, failures: eb('failures', '+', 1) }))
      .where('id', '=', found.id)
      .execute();
    throw err;
  }
  const token = await openSession(ctx, { managerId: actor.managerId, ip, userAgent: input.userAgent, mfaAt: now });
  return { token, username: found.username };
}
