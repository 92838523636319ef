/** Login, logout and the menu. */
import type { Kysely, Transaction } from 'kysely';
import { Code, Messages } from '../../../domain/codes';
import { buildMenu, type MenuEntry } from '../../../domain/permissions';
import type { Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { AppError, badInput } from '../../errors';
import { hashPassword, verifyPassword } from '../../passwords';
import { hashToken, newToken, type SessionManager } from './session.service';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_MAX_FAILURES = 5;

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

export async function login(
  ctx: Ctx,
  input: { username: string; password: string; ip: string; userAgent: string },
): Promise<{ token: string; username: string }> {
  const username = input.username.trim();
  const now = ctx.clock.now();
  const ip = input.ip.slice(0, 64);
  if ((await countAttempt(ctx.db, username, ip, now)) > LOGIN_MAX_FAILURES) {
    throw new AppError(Code.tooMany, Messages.tooManyLogins);
  }
  const manager = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username', 'password_hash', 'status'])
    .where('username', '=', username)
    .executeTakeFirst();
  const valid = await verifyPassword(manager?.password_hash ?? (await dummy()), input.password);
  if (!manager || !valid) throw badInput(Messages.badCredentials); // already counted
  if (manager.status !== 1) throw new AppError(Code.forbidden, '该账号已被禁用，请联系管理员');
  const token = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('login_attempt').where('username', '=', username).where('ip', '=', ip).execute();
    await trx
      .insertInto('session')
      .values({
        manager_id: manager.id,
        token_hash: hashToken(token),
        ip: input.ip.slice(0, 64),
        user_agent: input.userAgent.slice(0, 300),
        created_at: now,
        last_seen_at: now,
      })
      .execute();
    await endSessionsPastLimit(trx, manager.id, ctx.config.maxSessions, now);
    await trx
      .updateTable('manager')
      .set({ last_login_at: now, last_login_ip: input.ip.slice(0, 64) })
      .where('id', '=', manager.id)
      .execute();
  });
  return { token, username: manager.username };
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
