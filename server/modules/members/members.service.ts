/**
 * Members (DOMAIN.md §3 Members): the list and the creation. `createMembers` is the one way member rows
 * are written — the console's member/create (through `createMember`, which checks the input), the demo
 * data, the simulator and the tests all use it — so a member always has a unique 8-digit uid, its three
 * accounts, its counts and its zone's count. The manager's member/opt is in memberOpt.service.ts.
 */
import type { Static } from '@sinclair/typebox';
import type { MemberListQuery } from './members.schema';
import { randomInt } from 'node:crypto';
import { Assets, type Asset } from '../../../domain/assets';
import { formatAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { isUniqueViolation } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { badInput, conflict } from '../../errors';
import { hashPassword, randomPassword } from '../../passwords';
import { pageOf } from '../../db/keyset';
import { parseRange } from '../../range';
import { openAccounts } from '../ledger/ledger.service';
import { managerAction } from '../oplog/managerAction';
import type { Kysely, Transaction } from 'kysely';
import { findMembers, type MemberPageRow } from './memberList.repository';
import { insertMembers, memberByUid, phoneTaken, uidTaken, type MemberRow } from './members.repository';
import { changeZoneCount, zoneById } from './zones.repository';

type Db = Kysely<Database> | Transaction<Database>;

export const MemberMessages = {
  notFound: '会员不存在',
  phoneTaken: '手机号已注册',
  inviterMissing: '邀请人不存在',
  zoneMissing: '专区不存在',
  zoneDisabled: '专区已停用',
  levelRequired: '等级不能为空',
  zoneRequired: '专区不能为空',
  assetRequired: '币种不能为空',
  amountRequired: '调整金额不能为空',
  remarkRequired: '备注不能为空',
  alreadyFrozen: '会员已冻结',
  notFrozen: '会员状态正常，无需解冻',
  cannotBan: '仅正常状态的会员可以禁止提现',
  sameLevel: '会员已是该等级',
  sameZone: '会员已在该专区',
  zoneChanged: '会员专区已变更，请刷新后重试',
  levelChanged: '会员等级已变更，请刷新后重试',
} as const;

/** Each asset's column of a page row, named once (a key made per row costs a lookup of the new string). */
const BALANCE_COLUMNS = Assets.map((asset) => [asset, `balance_${asset}` as const] as const);

/** The balances read with a page row (`balance_USDT` = "available,frozen"); no account row shows 0. */
function balancesOfRow(r: MemberPageRow): Record<Asset, { available: string; frozen: string }> {
  const out = {} as Record<Asset, { available: string; frozen: string }>;
  for (const [asset, column] of BALANCE_COLUMNS) {
    const text = r[column];
    let available = '0';
    let frozen = '0';
    if (text) {
      const comma = text.indexOf(',');
      available = (comma < 0 ? text : text.slice(0, comma)) || '0';
      if (comma >= 0) frozen = text.slice(comma + 1) || '0';
    }
    out[asset] = { available: formatAsset(available, asset), frozen: formatAsset(frozen, asset) };
  }
  return out;
}

// ---- member list ----

export type MemberListInput = Static<typeof MemberListQuery>;

export async function listMembers(ctx: Ctx, q: MemberListInput) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  let inviterId: number | undefined;
  const inviterUid = q.inviterUid?.trim();
  if (inviterUid) inviterId = Number((await memberByUid(ctx.db, inviterUid))?.id ?? -1);
  const { rows, total, next, prev } = await findMembers(
    ctx.db,
    {
      keyword: q.keyword?.trim() || undefined,
      inviterId,
      zoneId: q.zoneId,
      level: q.level,
      status: q.status,
      start,
      end,
    },
    { offset, limit: size, sort: q.sort ?? 'id', order: q.order ?? 'desc', keyset },
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      uid: r.uid,
      phone: r.phone,
      nickname: r.nickname,
      inviterUid: r.inviter_uid ?? null,
      zoneId: r.zone_id == null ? null : Number(r.zone_id),
      zoneName: r.zone_name ?? null,
      level: r.level as 0 | 1 | 2 | 3 | 4 | 5,
      status: r.status as 1 | 2 | 3,
      realNameStatus: r.real_name_status as 0 | 1,
      balances: balancesOfRow(r),
      createdAt: Number(r.created_at),
      lastLoginAt: r.last_login_at == null ? null : Number(r.last_login_at),
    })),
    total,
    page,
    size,
    next,
    prev,
  };
}

// ---- creating members ----

export interface CreateMemberInput {
  phone: string;
  /** Plain password; hashed with argon2 unless `opts.passwordHash` is given. */
  password?: string;
  nickname: string;
  inviterUid?: string | null;
  zoneId?: number | null;
}

export interface CreateMemberOptions {
  now: number;
  /** A ready argon2 hash (demo data hashes one password once for thousands of members). */
  passwordHash?: string;
  level?: number;
  status?: number;
  realNameStatus?: number;
}

/** A random 8-digit uid, first digit not 0, not yet used. */
async function freeUid(db: Db): Promise<string> {
  for (;;) {
    const uid = String(randomInt(10_000_000, 100_000_000));
    if (!(await uidTaken(db, uid))) return uid;
  }
}

/** A member to write whose fields are already checked (unique phone, existing inviter and zone). */
export interface NewMember {
  /** A fresh random uid unless given (demo data and the simulator pick theirs). */
  uid?: string;
  phone: string;
  nickname: string;
  passwordHash: string;
  inviterId?: number | null;
  zoneId?: number | null;
  level?: number;
  status?: number;
  realNameStatus?: number;
  createdAt: number;
}

/**
 * The one way member rows are written (createMember, demo data, the simulator, test fixtures), inside
 * the caller's transaction: each member inserted and counted (member_count, member_phone_count), its
 * three accounts opened at zero, its zone's member count raised. bench/data.ts alone loads members in
 * bulk past this (millions of rows) and rebuilds the counts after.
 */
export async function createMembers(trx: Db, rows: readonly NewMember[]): Promise<Array<{ id: number; uid: string }>> {
  const full: MemberRow[] = [];
  for (const r of rows) {
    full.push({
      uid: r.uid ?? (await freeUid(trx)),
      phone: r.phone,
      nickname: r.nickname,
      passwordHash: r.passwordHash,
      inviterId: r.inviterId ?? null,
      zoneId: r.zoneId ?? null,
      level: r.level ?? 0,
      status: r.status ?? 1,
      realNameStatus: r.realNameStatus ?? 0,
      createdAt: r.createdAt,
    });
  }
  const ids = await insertMembers(trx, full);
  for (let i = 0; i < ids.length; i++) await openAccounts(trx, ids[i], full[i].createdAt);
  // Each zone's count once, in ascending id order: two batches at once cannot deadlock.
  const zones = new Map<number, { n: number; at: number }>();
  for (const r of full) {
    if (r.zoneId === null) continue;
    const z = zones.get(r.zoneId);
    zones.set(r.zoneId, { n: (z?.n ?? 0) + 1, at: Math.max(z?.at ?? r.createdAt, r.createdAt) });
  }
  for (const [zoneId, z] of [...zones].sort((a, b) => a[0] - b[0])) await changeZoneCount(trx, zoneId, z.n, z.at);
  return ids.map((id, i) => ({ id, uid: full[i].uid }));
}

/**
 * Creates a member inside the caller's transaction: phone unique, inviter and zone checked, a
 * fresh uid, the three accounts opened at zero, the zone's member count raised.
 */
export async function createMember(trx: Db, input: CreateMemberInput, opts: CreateMemberOptions) {
  const phone = input.phone.trim();
  const nickname = input.nickname.trim();
  if (!nickname) throw badInput('昵称不能为空');
  if (await phoneTaken(trx, phone)) throw badInput(MemberMessages.phoneTaken);
  let inviterId: number | null = null;
  const inviterUid = input.inviterUid?.trim();
  if (inviterUid) {
    const inviter = await memberByUid(trx, inviterUid);
    if (!inviter) throw badInput(MemberMessages.inviterMissing);
    inviterId = Number(inviter.id);
  }
  const zoneId = input.zoneId ?? null;
  if (zoneId !== null) {
    const zone = await zoneById(trx, zoneId);
    if (!zone) throw badInput(MemberMessages.zoneMissing);
    if (zone.status !== 1) throw badInput(MemberMessages.zoneDisabled);
  }
  const passwordHash = opts.passwordHash ?? (await hashPassword(input.password ?? randomPassword()));
  try {
    const [created] = await createMembers(trx, [
      {
        phone,
        nickname,
        passwordHash,
        inviterId,
        zoneId,
        level: opts.level,
        status: opts.status,
        realNameStatus: opts.realNameStatus,
        createdAt: opts.now,
      },
    ]);
    return created;
  } catch (err) {
    // Another request took the phone (or, rarely, the uid) between the check and the insert.
    if (isUniqueViolation(err)) throw conflict(MemberMessages.phoneTaken);
    throw err;
  }
}

/** Member side: registers a member in a transaction of its own (simulator, scripts). */
export async function registerMember(ctx: Ctx, input: CreateMemberInput, opts: Partial<CreateMemberOptions> = {}) {
  const passwordHash = opts.passwordHash ?? (await hashPassword(input.password ?? randomPassword()));
  const now = opts.now ?? ctx.clock.now();
  return ctx.db.transaction().execute((trx) => createMember(trx, input, { ...opts, now, passwordHash }));
}

/** member/create: the manager's creation, with its op-log row. */
export async function createMemberByManager(ctx: Ctx, actor: Actor, input: CreateMemberInput) {
  // argon2 before the transaction: no lock is held while it hashes.
  const passwordHash = await hashPassword(input.password ?? randomPassword());
  const now = ctx.clock.now();
  return managerAction(
    ctx,
    actor,
    async ({ trx }) => {
      const created = await createMember(trx, input, { now, passwordHash });
      return {
        result: created,
        log: {
          code: 'member:create',
          target: `member#${created.id} (${created.uid})`,
          summary: `新增会员 ${created.uid}（${input.phone.trim()}，${input.nickname.trim()}）`,
        },
      };
    },
    now,
  );
}
