/**
 * Sessions: random tokens handed to the client, kept only as SHA-256 hashes, expiring after idle
 * time. A revoked session answers 301 after logout and 302 when it was ended elsewhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Code, Messages } from '../../../domain/codes';
import { allPermissions, alwaysAllowedCodes } from '../../../domain/permissions';
import type { Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const newToken = () => randomBytes(32).toString('base64url');

/** How stale last_seen_at may get before a request writes it again: keeps reads read-only. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionManager {
  sessionId: number;
  id: number;
  username: string;
  roleId: number;
  isSuper: boolean;
  codes: ReadonlySet<string>;
}

const ALL_CODES: ReadonlySet<string> = new Set(allPermissions.map((p) => p.code));

/**
 * Grants per role, cached per process and keyed by the role's perm_version so a bind anywhere is seen.
 * One cache per database handle: role ids of two databases (tests build many) must never meet.
 */
const grantCaches = new WeakMap<Kysely<Database>, Map<string, ReadonlySet<string>>>();

async function roleCodes(db: Kysely<Database>, roleId: number, version: number): Promise<ReadonlySet<string>> {
  let grantCache = grantCaches.get(db);
  if (!grantCache) grantCaches.set(db, (grantCache = new Map()));
  const key = `${roleId}:${version}`;
  const hit = grantCache.get(key);
  if (hit) return hit;
  const rows = await db
    .selectFrom('role_permission as rp')
    .innerJoin('permission as p', 'p.id', 'rp.permission_id')
    .select('p.code')
    .where('rp.role_id', '=', roleId)
    .execute();
  const codes = new Set([...rows.map((r) => r.code), ...alwaysAllowedCodes]);
  if (grantCache.size > 1000) grantCache.clear();
  grantCache.set(key, codes);
  return codes;
}

export async function resolveSession(ctx: Ctx, token: string | undefined): Promise<SessionManager> {
  if (!token) throw new AppError(Code.notLoggedIn, Messages.notLoggedIn);
  const row = await ctx.db
    .selectFrom('session as s')
    .leftJoin('manager as m', 'm.id', 's.manager_id')
    .leftJoin('role as r', 'r.id', 'm.role_id')
    .select([
      's.id as sessionId',
      's.manager_id as managerId',
      's.last_seen_at as lastSeenAt',
      's.revoked_reason as revokedReason',
      'm.username',
      'm.status',
      'm.role_id as roleId',
      'r.is_super as isSuper',
      'r.perm_version as permVersion',
    ])
    .where('s.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw new AppError(Code.notLoggedIn, Messages.notLoggedIn);
  if (row.revokedReason === 'logout') throw new AppError(Code.notLoggedIn, Messages.notLoggedIn);
  if (row.revokedReason || row.username == null || row.status !== 1) {
    throw new AppError(Code.sessionEnded, Messages.sessionEnded);
  }
  const now = ctx.clock.now();
  if (now - Number(row.lastSeenAt) > ctx.config.tokenIdleHours * 3600_000) {
    throw new AppError(Code.notLoggedIn, Messages.sessionExpired);
  }
  if (now - Number(row.lastSeenAt) > TOUCH_EVERY_MS) {
    await ctx.db.updateTable('session').set({ last_seen_at: now }).where('id', '=', row.sessionId).execute();
  }
  const isSuper = row.isSuper === 1;
  return {
    sessionId: row.sessionId,
    id: row.managerId,
    username: row.username,
    roleId: Number(row.roleId),
    isSuper,
    codes: isSuper ? ALL_CODES : await roleCodes(ctx.db, Number(row.roleId), Number(row.permVersion)),
  };
}

/** Ends every live session of a manager (disable, delete, password change): they answer 302 next. */
export async function endSessions(db: Kysely<Database>, managerId: number, now: number, exceptSessionId?: number) {
  let q = db
    .updateTable('session')
    .set({ revoked_at: now, revoked_reason: 'ended' })
    .where('manager_id', '=', managerId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}
