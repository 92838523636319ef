/**
 * The second factor (issue 15): binding an authenticator, checking its codes at login and before
 * money moves (step-up), recovery codes, and the super manager's reset.
 *
 * - Codes: RFC 6238 (SHA-1, 6 digits, 30 s) through `otpauth`, accepted one step either side. A code
 *   is taken once: accepting step s moves manager_totp.last_step to s by a conditional UPDATE, so the
 *   same code (or an older one) is refused afterwards, by every server process.
 * - Secrets: AES-256-GCM under TOTP_KEY, the manager's id as associated data (a row copied onto another
 *   manager does not decrypt). Without TOTP_KEY nobody can bind.
 * - Recovery codes: ten random codes of 50 bits, shown once, kept as HMAC-SHA-256 under a key derived
 *   from TOTP_KEY; a used one is marked by a conditional UPDATE (once, even when raced).
 * - Wrong codes are throttled per manager across addresses, like the account's passwords (5 free,
 *   then one try per delay doubling from 1 minute to 1 hour); a right one clears the count.
 */
import type { Kysely, Transaction } from 'kysely';
import { Secret } from 'otpauth';
import { Code } from '../../../domain/codes';
import { RECOVERY_CODE_COUNT, TotpLogCodes } from '../../../domain/totp';
import type { Actor, Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { AppError, badInput, conflict, forbidden, notFound } from '../../errors';
import { writeOpLog } from '../oplog/oplog.repository';
import { ACCOUNT_ROW, claimAccountTry, waitText, type TryPolicy } from './attempts';
import { endSessions } from './session.service';
import { decryptSecret, encryptSecret, newRecoveryCode, recoveryHash, stepOfCode, totpOf } from './totp.codes';

export const TOTP_FREE_FAILURES = 5;
export const TOTP_FIRST_DELAY_MS = 60_000;
export const TOTP_MAX_DELAY_MS = 3600_000;
const TOTP_POLICY: TryPolicy = {
  free: TOTP_FREE_FAILURES,
  delay: (failures) => Math.min(TOTP_MAX_DELAY_MS, TOTP_FIRST_DELAY_MS * 2 ** (failures - TOTP_FREE_FAILURES)),
  table: 'totp_attempt',
};

export const Msg = {
  noKey: '服务器未配置 TOTP_KEY，暂不能绑定身份验证器，请联系系统管理员',
  alreadyBound: '已绑定身份验证器，如需更换请先解绑',
  notBound: '尚未绑定身份验证器',
  noPending: '请先获取二维码，再输入验证码',
  wrongCode: '验证码错误，请输入身份验证器中当前的6位验证码',
  wrongRecovery: '恢复码错误或已使用',
  replayed: '该验证码已使用过，请等待身份验证器显示下一个验证码',
  needCode: '请输入验证码或恢复码',
  challengeGone: '登录已超时，请重新输入用户名和密码',
  throttled: (ms: number) => `验证码错误次数过多，请${waitText(ms)}后再试`,
  unbindRequired: '所属角色要求绑定身份验证器，不能解绑',
} as const;

/** A manager's row in totp_attempt (a table the password login never writes). */
const throttleKey = (managerId: number) => `manager#${managerId}`;

/** Forgets a manager's wrong codes (a right one came). */
async function clearCodeFailures(db: Kysely<Database> | Transaction<Database>, managerId: number) {
  await db
    .deleteFrom('totp_attempt')
    .where('username', '=', throttleKey(managerId))
    .where('ip', '=', ACCOUNT_ROW)
    .execute();
}

/** What a code was given for: the op log names it, and a refused step-up has its own row code. */
export type ProofPurpose = '登录' | '二次验证' | '解绑';

function keyOf(ctx: Ctx): Buffer {
  if (!ctx.config.totpKey) throw conflict(Msg.noKey);
  return ctx.config.totpKey;
}

/** What the manager sends to prove himself: a current code, or one of his recovery codes. */
export interface Proof {
  code?: string;
  recoveryCode?: string;
}

/**
 * Checks a code (or recovery code) of a manager's confirmed authenticator; throws a clear 400 (or 429
 * when throttled) otherwise. The try is counted before it is checked (parallel guesses cannot all
 * pass a check made before their failures are recorded); a right one clears the count. Every wrong
 * code writes an op-log row, so guesses never go unseen (a right code clears the count, and the
 * manager, or whoever watches the log, sees the failures before it).
 */
export async function checkProof(
  ctx: Ctx,
  actor: Actor,
  proof: Proof,
  purpose: ProofPurpose,
): Promise<'code' | 'recovery'> {
  const code = proof.code?.replace(/\s/g, '');
  if (!code && !proof.recoveryCode) throw badInput(Msg.needCode);
  const key = keyOf(ctx);
  const row = await ctx.db
    .selectFrom('manager_totp')
    .select(['secret_enc', 'last_step'])
    .where('manager_id', '=', actor.managerId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  if (!row) throw badInput(Msg.notBound);
  const now = ctx.clock.now();
  const claim = await claimAccountTry(ctx.db, throttleKey(actor.managerId), now, TOTP_POLICY);
  if ('retryAt' in claim) {
    // A refused step-up is logged (it needs a session); refused login tries are not, or anyone with
    // the password could fill the log.
    if (purpose === '二次验证') await logFailure(ctx, actor, purpose, Msg.throttled(claim.retryAt - now));
    throw new AppError(Code.tooMany, Msg.throttled(claim.retryAt - now));
  }
  let refusal: string | null;
  if (code) {
    const step = stepOfCode(decryptSecret(key, actor.managerId, row.secret_enc), code, now);
    refusal = step === null ? Msg.wrongCode : (await takeStep(ctx.db, actor.managerId, step)) ? null : Msg.replayed;
  } else {
    const used = await ctx.db
      .updateTable('totp_recovery')
      .set({ used_at: now })
      .where('manager_id', '=', actor.managerId)
      .where('code_hash', '=', recoveryHash(key, actor.managerId, proof.recoveryCode!))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    refusal = Number(used.numUpdatedRows) === 1 ? null : Msg.wrongRecovery;
  }
  if (refusal) {
    await logFailure(ctx, actor, purpose, refusal);
    if (claim.failures >= TOTP_FREE_FAILURES) {
      await writeOpLog(
        ctx.db,
        actor,
        {
          code: TotpLogCodes.throttle,
          target: `manager#${actor.managerId} (${actor.username})`,
          summary: `验证码错误累计${claim.failures}次（来自 ${actor.ip}），每${waitText(TOTP_POLICY.delay(claim.failures))}只接受一次尝试`,
        },
        now,
      );
    }
    throw badInput(refusal);
  }
  await clearCodeFailures(ctx.db, actor.managerId);
  return code ? 'code' : 'recovery';
}

async function logFailure(ctx: Ctx, actor: Actor, purpose: ProofPurpose, why: string) {
  await writeOpLog(
    ctx.db,
    actor,
    {
      code: purpose === '二次验证' ? TotpLogCodes.stepUpFailed : TotpLogCodes.codeFailed,
      target: `manager#${actor.managerId} (${actor.username})`,
      summary: `${purpose}验证失败（来自 ${actor.ip}）：${why}`,
    },
    ctx.clock.now(),
  );
}

/** Accepts time step `step` once: false when it (or a later one) was already taken. */
async function takeStep(db: Kysely<Database> | Transaction<Database>, managerId: number, step: number) {
  const r = await db
    .updateTable('manager_totp')
    .set({ last_step: step })
    .where('manager_id', '=', managerId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface TotpStatus {
  /** TOTP_KEY is set: binding is possible. */
  available: boolean;
  bound: boolean;
  /** The manager's role asks for an authenticator. */
  required: boolean;
  boundAt: number | null;
  recoveryLeft: number;
  stepUpSeconds: number;
}

export async function totpStatus(ctx: Ctx, managerId: number): Promise<TotpStatus> {
  const row = await ctx.db
    .selectFrom('manager as m')
    .innerJoin('role as r', 'r.id', 'm.role_id')
    .leftJoin('manager_totp as t', 't.manager_id', 'm.id')
    .select(['m.totp_on', 'r.require_totp', 't.confirmed_at'])
    .where('m.id', '=', managerId)
    .executeTakeFirstOrThrow();
  const left = await ctx.db
    .selectFrom('totp_recovery')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('manager_id', '=', managerId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  const bound = row.totp_on === 1;
  return {
    available: ctx.config.totpKey !== null,
    bound,
    required: row.require_totp === 1,
    boundAt: bound && row.confirmed_at != null ? Number(row.confirmed_at) : null,
    recoveryLeft: bound ? Number(left.n) : 0,
    stepUpSeconds: ctx.config.stepUpSeconds,
  };
}

/**
 * Step 1 of binding: a new secret, kept encrypted and unconfirmed (a second call replaces it), with the
 * otpauth URI and its QR code (an SVG made here, never by a web service).
 */
export async function beginBinding(ctx: Ctx, actor: Actor): Promise<{ secret: string; uri: string; qr: string }> {
  const key = keyOf(ctx);
  const now = ctx.clock.now();
  const secret = new Secret({ size: 20 }).base32;
  const sealed = encryptSecret(key, actor.managerId, secret);
  const r = await ctx.db
    .insertInto('manager_totp')
    .values({ manager_id: actor.managerId, secret_enc: sealed, confirmed_at: null, created_at: now })
    .onConflict((oc) =>
      oc
        .column('manager_id')
        .doUpdateSet({ secret_enc: sealed, last_step: 0, created_at: now })
        .where('manager_totp.confirmed_at', 'is', null),
    )
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 1) === 0) throw conflict(Msg.alreadyBound);
  const uri = totpOf(secret, actor.username).toString();
  const { toString } = await import('qrcode');
  const svg = await toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Step 2: the first code confirms the binding. The manager gets his ten recovery codes (shown this
 * once), this session counts as just verified, and the op log has the row.
 */
export async function confirmBinding(
  ctx: Ctx,
  actor: Actor,
  sessionId: number,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const key = keyOf(ctx);
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom('manager_totp')
    .select(['secret_enc', 'confirmed_at'])
    .where('manager_id', '=', actor.managerId)
    .executeTakeFirst();
  if (row?.confirmed_at != null) throw conflict(Msg.alreadyBound);
  if (!row) throw badInput(Msg.noPending);
  const claim = await claimAccountTry(ctx.db, throttleKey(actor.managerId), now, TOTP_POLICY);
  if ('retryAt' in claim) throw new AppError(Code.tooMany, Msg.throttled(claim.retryAt - now));
  const step = stepOfCode(decryptSecret(key, actor.managerId, row.secret_enc), code.replace(/\s/g, ''), now);
  if (step === null) throw badInput(Msg.wrongCode);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('manager_totp')
      .set({ confirmed_at: now, last_step: step })
      .where('manager_id', '=', actor.managerId)
      .where('confirmed_at', 'is', null)
      .where('secret_enc', '=', row.secret_enc) // not replaced by another 获取二维码 meanwhile
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw conflict('二维码已更新或已绑定，请刷新后重试');
    await trx.updateTable('manager').set({ totp_on: 1 }).where('id', '=', actor.managerId).execute();
    await trx.deleteFrom('totp_recovery').where('manager_id', '=', actor.managerId).execute();
    await trx
      .insertInto('totp_recovery')
      .values(
        codes.map((c) => ({
          manager_id: actor.managerId,
          code_hash: recoveryHash(key, actor.managerId, c),
          used_at: null,
        })),
      )
      .execute();
    await trx.updateTable('session').set({ mfa_at: now }).where('id', '=', sessionId).execute();
    // His other sessions were opened with the password alone: they end (as a password change does).
    await endSessions(trx, actor.managerId, now, sessionId);
    await clearCodeFailures(trx, actor.managerId);
    await writeOpLog(
      trx,
      actor,
      { code: TotpLogCodes.bind, target: `manager#${actor.managerId} (${actor.username})`, summary: '绑定身份验证器' },
      now,
    );
  });
  return { recoveryCodes: codes };
}

/**
 * Forgets everything of a manager's authenticator in the caller's transaction: the binding (or the
 * pending one), recovery codes, login challenges and wrong-code counts. Unbinding, the reset and
 * deleting the manager (whose id SQLite may give to the next one) all go through here.
 */
export async function forgetAuthenticator(trx: Transaction<Database>, managerId: number) {
  for (const table of ['manager_totp', 'totp_recovery', 'login_challenge'] as const) {
    await trx.deleteFrom(table).where('manager_id', '=', managerId).execute();
  }
  await clearCodeFailures(trx, managerId);
  await trx.updateTable('manager').set({ totp_on: 0 }).where('id', '=', managerId).execute();
}

/** The manager unbinds his own authenticator with a current code or a recovery code. */
export async function unbind(ctx: Ctx, actor: Actor, proof: Proof): Promise<void> {
  const role = await ctx.db
    .selectFrom('manager as m')
    .innerJoin('role as r', 'r.id', 'm.role_id')
    .select('r.require_totp')
    .where('m.id', '=', actor.managerId)
    .executeTakeFirst();
  if (role?.require_totp === 1) throw conflict(Msg.unbindRequired);
  await checkProof(ctx, actor, proof, '解绑');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await forgetAuthenticator(trx, actor.managerId);
    await writeOpLog(
      trx,
      actor,
      {
        code: TotpLogCodes.unbind,
        target: `manager#${actor.managerId} (${actor.username})`,
        summary: proof.code ? '解绑身份验证器（验证码）' : '解绑身份验证器（恢复码）',
      },
      now,
    );
  });
}

/** Step-up: a fresh code for this session; a wrong one (or a throttled try) is written to the op log. */
export async function stepUp(ctx: Ctx, actor: Actor, sessionId: number, proof: Proof): Promise<void> {
  await checkProof(ctx, actor, proof, '二次验证');
  await ctx.db.updateTable('session').set({ mfa_at: ctx.clock.now() }).where('id', '=', sessionId).execute();
}

/** The super manager resets another manager's authenticator (lost phone): his sessions end too. */
export async function resetBinding(ctx: Ctx, actor: Actor & { isSuper: boolean }, managerId: number): Promise<void> {
  if (!actor.isSuper) throw forbidden('只有超级管理员可以重置身份验证器');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const target = await trx
      .selectFrom('manager')
      .select(['username', 'totp_on'])
      .where('id', '=', managerId)
      .executeTakeFirst();
    if (!target) throw notFound('管理员不存在');
    if (target.totp_on !== 1) throw conflict(`管理员 ${target.username} 未绑定身份验证器`);
    await forgetAuthenticator(trx, managerId);
    await endSessions(trx, managerId, now);
    await writeOpLog(
      trx,
      actor,
      {
        code: TotpLogCodes.reset,
        target: `manager#${managerId} (${target.username})`,
        summary: `重置 ${target.username} 的身份验证器`,
      },
      now,
    );
  });
}
