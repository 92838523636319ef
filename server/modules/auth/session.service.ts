/**
 * Sessions: random tokens handed to the client, kept only as SHA-256 hashes, expiring after idle
 * time. A revoked session answers 301 after logout and 302 when it was ended elsewhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type CompiledQuery, type InferResult, type Kysely, type Transaction } from 'kysely';
import { Code, Messages } from '../../../domain/codes';
import { allPermissions, alwaysAllowedCodes } from '../../../domain/permissions';
import type { Ctx } from '../../context';
import { CoalescedReads } from '../../db/coalesce';
import { dialectOf } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { readWithGenericPlan } from '../../db/statements';
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
  /** The role's grant version (moved by every bind): the live channel notices a change by it. */
  permVersion: number;
  codes: ReadonlySet<string>;
  /** An authenticator is bound: money routes ask for a fresh code (step-up). */
  totpOn: boolean;
  /** The role asks for an authenticator and none is bound: only binding (and logout) is open. */
  mustBindTotp: boolean;
  /** When this session last gave a code (login or step-up), or null. */
  mfaAt: number | null;
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

/** The session lookup every request makes, by token hash. */
function sessionLookup(db: Kysely<Database>, tokenHash: string) {
  return sessionSelect(db).where('s.token_hash', '=', tokenHash);
}

function sessionSelect(db: Kysely<Database>) {
  return db
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
      'm.totp_on as totpOn',
      'r.require_totp as requireTotp',
      's.mfa_at as mfaAt',
    ]);
}
type SessionRow = InferResult<ReturnType<typeof sessionLookup>>[number];

/** The lookup of several sessions at once (PostgreSQL): `token_hash = any($1)`, one text[] parameter. */
function sessionLookupMany(db: Kysely<Database>, tokenHashes: string[]) {
  return sessionSelect(db)
    .select('s.token_hash as tokenHash')
    .where(sql<boolean>`s.token_hash = any(${tokenHashes})`);
}
type SessionRowOf = InferResult<ReturnType<typeof sessionLookupMany>>[number];

/**
 * The lookups compiled once per database handle and run with each token's hash (or hashes): building
 * and compiling them again on every request cost about as much as running them.
 */
const compiledLookups = new WeakMap<Kysely<Database>, (tokenHash: string) => Promise<SessionRow | undefined>>();

function compiledOnce<R>(query: { compile(): CompiledQuery<R> }): CompiledQuery<R> {
  const compiled = query.compile();
  if (compiled.parameters.length !== 1) throw new Error('the session lookup must take exactly one parameter');
  return compiled;
}

/**
 * The session row of a token hash. Its plan cannot depend on the hash (a unique key, then two primary
 * keys): planned once per connection instead of on every request (on PostgreSQL ~0.1 ms of the
 * backend's CPU each time). On PostgreSQL the lookups of requests that arrive together share one
 * statement (CoalescedReads: each still reads the session after its request came, only the round trip
 * is shared); SQLite's statements run in the process, with no round trip to share.
 */
function findSession(db: Kysely<Database>, tokenHash: string): Promise<SessionRow | undefined> {
  let find = compiledLookups.get(db);
  if (!find) {
    if (dialectOf(db as unknown as Kysely<unknown>) === 'postgres') {
      const many = compiledOnce(sessionLookupMany(db, []));
      const reads = new CoalescedReads<string, SessionRowOf>(async (hashes) => {
        const r = await readWithGenericPlan<SessionRowOf>(db, { ...many, parameters: [hashes] });
        return new Map(r.rows.map((row) => [row.tokenHash, row]));
      });
      find = (hash) => reads.load(hash);
    } else {
      const one = compiledOnce(sessionLookup(db, ''));
      find = async (hash) => (await readWithGenericPlan<SessionRow>(db, { ...one, parameters: [hash] })).rows[0];
    }
    compiledLookups.set(db, find);
  }
  return find(tokenHash);
}

export async function resolveSession(ctx: Ctx, token: string | undefined): Promise<SessionManager> {
  if (!token) throw new AppError(Code.notLoggedIn, Messages.notLoggedIn);
  const row = await findSession(ctx.db, hashToken(token));
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
  const totpOn = row.totpOn === 1;
  return {
    sessionId: row.sessionId,
    id: row.managerId,
    username: row.username,
    roleId: Number(row.roleId),
    isSuper,
    permVersion: Number(row.permVersion ?? 0),
    codes: isSuper ? ALL_CODES : await roleCodes(ctx.db, Number(row.roleId), Number(row.permVersion)),
    totpOn,
    mustBindTotp: !totpOn && row.requireTotp === 1,
    mfaAt: row.mfaAt == null ? null : Number(row.mfaAt),
  };
}

/** Ends every live session of a manager (disable, delete, password change): they answer 302 next. */
export async function endSessions(
  db: Kysely<Database> | Transaction<Database>,
  managerId: number,
  now: number,
  exceptSessionId?: number,
) {
  let q = db
    .updateTable('session')
    .set({ revoked_at: now, revoked_reason: 'ended' })
    .where('manager_id', '=', managerId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}
