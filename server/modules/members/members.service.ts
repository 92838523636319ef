/**
 * Members, zones and the asset query (DOMAIN.md §3 Members). `createMember` is the one way a member
 * comes to exist — the console's member/create, the demo data, the simulator and the tests all use
 * it — so a member always has a unique 8-digit uid, its three accounts and its zone counted.
 * Every manager change is one transaction with one op-log row; state changes are conditional UPDATEs.
 */
import { randomInt } from 'node:crypto';
import { AssetDecimals, Assets, type Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import {
  MemberActionLabels,
  MemberLevel,
  MemberStatus,
  memberActionCode,
  type MemberAction,
  type ZoneAction,
} from '../../../domain/members';
import { formatAsset, moneyReasonText, moneyRefusal, parseAsset, parseMinor } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { isUniqueViolation } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { toMinor } from '../../db/sql';
import { badInput, conflict, notFound } from '../../errors';
import { hashPassword, randomPassword } from '../../passwords';
import { pageOf } from '../../db/keyset';
import { parseRange } from '../../range';
import { applyChange, balancesOf, InsufficientBalance, ledgerTotals, openAccounts } from '../ledger/ledger.service';
import { writeOpLog } from '../oplog/oplog.repository';
import type { Kysely, Transaction } from 'kysely';
import {
  changeZoneCount,
  countMembersByKey,
  deleteEmptyZone,
  findAccounts,
  findMembers,
  findZones,
  insertMember,
  insertZone,
  memberById,
  memberByUid,
  moveMemberStatus,
  moveZoneStatus,
  phoneTaken,
  setMemberLevel,
  setMemberPassword,
  setMemberZone,
  uidTaken,
  updateZone,
  zoneById,
  zoneNameTaken,
  type AccountSums,
  type AssetSort,
  type MemberPageRow,
  type MemberSort,
  type ZoneSort,
} from './members.repository';

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

export const ZoneMessages = {
  notFound: '专区不存在',
  idRequired: '专区ID不能为空',
  nameRequired: '专区名称不能为空',
  nameTaken: '专区名称已存在',
  leaderMissing: '负责人不存在',
  alreadyEnabled: '专区已启用',
  alreadyDisabled: '专区已停用',
  hasMembers: '该专区下还有会员，不能删除',
} as const;

/** The balances read with a page row (`balance_USDT` = "available,frozen"); no account row shows 0. */
function balancesOfRow(r: MemberPageRow): Record<Asset, { available: string; frozen: string }> {
  const out = {} as Record<Asset, { available: string; frozen: string }>;
  for (const asset of Assets) {
    const [available = '0', frozen = '0'] = (r[`balance_${asset}`] ?? '').split(',');
    out[asset] = { available: formatAsset(available || '0', asset), frozen: formatAsset(frozen || '0', asset) };
  }
  return out;
}

// ---- member list ----

export interface MemberListInput {
  page?: number;
  size?: number;
  /** Keyset paging: the `next` / `prev` of the page on screen (server/db/keyset.ts). */
  after?: string;
  before?: string;
  sort?: MemberSort;
  order?: 'asc' | 'desc';
  keyword?: string;
  inviterUid?: string;
  zoneId?: number;
  level?: number;
  status?: number;
  start?: string;
  end?: string;
}

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
  const uid = await freeUid(trx);
  let id: number;
  try {
    id = await insertMember(trx, {
      uid,
      phone,
      nickname,
      passwordHash,
      inviterId,
      zoneId,
      level: opts.level ?? 0,
      status: opts.status ?? 1,
      realNameStatus: opts.realNameStatus ?? 0,
      now: opts.now,
    });
  } catch (err) {
    // Another request took the phone (or, rarely, the uid) between the check and the insert.
    if (isUniqueViolation(err)) throw conflict(MemberMessages.phoneTaken);
    throw err;
  }
  await openAccounts(trx, id, opts.now);
  if (zoneId !== null) await changeZoneCount(trx, zoneId, 1, opts.now);
  return { id, uid };
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
  return ctx.db.transaction().execute(async (trx) => {
    const created = await createMember(trx, input, { now, passwordHash });
    await writeOpLog(
      trx,
      actor,
      {
        code: 'member:create',
        target: `member#${created.id} (${created.uid})`,
        summary: `新增会员 ${created.uid}（${input.phone.trim()}，${input.nickname.trim()}）`,
      },
      now,
    );
    return created;
  });
}

// ---- member/opt ----

export interface MemberOptInput {
  id: number;
  action: MemberAction;
  level?: number;
  zoneId?: number;
  password?: string;
  asset?: Asset;
  amount?: string;
  remark?: string;
}

/** Checks a permission code; throws (403) when the caller's role lacks it. */
export type Guard = (code: string) => void;

type Checked =
  | { action: 'freeze' | 'unfreeze' | 'banWithdraw' }
  | { action: 'setLevel'; level: number }
  | { action: 'setZone'; zoneId: number }
  | { action: 'resetPassword'; password: string; generated: boolean }
  | { action: 'adjust'; asset: Asset; amount: bigint; remark: string };

function checkInput(input: MemberOptInput): Checked {
  switch (input.action) {
    case 'setLevel':
      if (input.level === undefined) throw badInput(MemberMessages.levelRequired);
      return { action: 'setLevel', level: input.level };
    case 'setZone':
      if (input.zoneId === undefined) throw badInput(MemberMessages.zoneRequired);
      return { action: 'setZone', zoneId: input.zoneId };
    case 'resetPassword':
      return input.password
        ? { action: 'resetPassword', password: input.password, generated: false }
        : { action: 'resetPassword', password: randomPassword(), generated: true };
    case 'adjust': {
      if (!input.asset) throw badInput(MemberMessages.assetRequired);
      if (!input.amount?.trim()) throw badInput(MemberMessages.amountRequired);
      const r = parseAsset(input.amount, input.asset, { allowNegative: true });
      if (!r.ok)
        throw badInput(r.reason === 'zero' ? '调整金额不能为0' : moneyRefusal('调整金额', r.reason, input.asset));
      const remark = (input.remark ?? '').trim();
      if (!remark) throw badInput(MemberMessages.remarkRequired);
      return { action: 'adjust', asset: input.asset, amount: r.value, remark };
    }
    default:
      return { action: input.action };
  }
}

const STATUS_MOVES = {
  freeze: { from: [1, 3], to: 2, refused: MemberMessages.alreadyFrozen },
  unfreeze: { from: [2, 3], to: 1, refused: MemberMessages.notFrozen },
  banWithdraw: { from: [1], to: 3, refused: MemberMessages.cannotBan },
} as const;

export async function memberOpt(ctx: Ctx, actor: Actor, input: MemberOptInput, guard: Guard) {
  const code = memberActionCode(input.action);
  guard(code);
  const c = checkInput(input);
  const passwordHash = c.action === 'resetPassword' ? await hashPassword(c.password) : undefined;
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const m = await memberById(trx, input.id);
    if (!m) throw notFound(MemberMessages.notFound);
    const who = `${m.uid}（${m.nickname}）`;
    let row: { id: number; status: number; level: number; zone_id: number | null } | undefined;
    let summary: string;
    let extra: { password?: string; balance?: { asset: string; available: string; frozen: string; billId: number } } =
      {};
    switch (c.action) {
      case 'freeze':
      case 'unfreeze':
      case 'banWithdraw': {
        const move = STATUS_MOVES[c.action];
        // From exactly the status read above (so its count moves exactly); a concurrent change is a 409.
        const from: readonly number[] = move.from;
        if (from.includes(m.status)) row = await moveMemberStatus(trx, input.id, m.status, move.to);
        if (!row) throw conflict(move.refused);
        summary = `${MemberActionLabels[c.action]}会员 ${who}：${MemberStatus.label(m.status)} → ${MemberStatus.label(move.to)}`;
        break;
      }
      case 'setLevel':
        if (m.level === c.level) throw conflict(MemberMessages.sameLevel);
        row = await setMemberLevel(trx, input.id, m.level, c.level);
        if (!row) throw conflict(MemberMessages.levelChanged);
        summary = `修改会员 ${who} 等级：${MemberLevel.label(m.level)} → ${MemberLevel.label(c.level)}`;
        break;
      case 'setZone': {
        const zone = await zoneById(trx, c.zoneId);
        if (!zone) throw badInput(MemberMessages.zoneMissing);
        if (zone.status !== 1) throw badInput(MemberMessages.zoneDisabled);
        const from = m.zone_id == null ? null : Number(m.zone_id);
        if (from === c.zoneId) throw conflict(MemberMessages.sameZone);
        row = await setMemberZone(trx, input.id, from, c.zoneId);
        if (!row) throw conflict(MemberMessages.zoneChanged);
        // Both zones' counts in ascending id order: two opposite moves at once cannot deadlock.
        const moves: Array<[number, number]> =
          from === null
            ? [[c.zoneId, 1]]
            : [
                [from, -1],
                [c.zoneId, 1],
              ];
        moves.sort((a, b) => a[0] - b[0]);
        for (const [zoneId, delta] of moves) await changeZoneCount(trx, zoneId, delta, now);
        const fromName = from === null ? '无' : ((await zoneById(trx, from))?.name ?? `#${from}`);
        summary = `修改会员 ${who} 专区：${fromName} → ${zone.name}`;
        break;
      }
      case 'resetPassword':
        row = await setMemberPassword(trx, input.id, passwordHash!);
        if (!row) throw notFound(MemberMessages.notFound);
        summary = `重置会员 ${who} 登录密码${c.generated ? '（系统生成）' : ''}`;
        if (c.generated) extra = { password: c.password };
        break;
      case 'adjust': {
        let result;
        try {
          result = await applyChange(
            trx,
            {
              memberId: input.id,
              asset: c.asset,
              available: c.amount,
              type: BillType.adminAdjust,
              ref: { kind: 'member', id: input.id },
              remark: c.remark,
            },
            now,
          );
        } catch (err) {
          if (!(err instanceof InsufficientBalance)) throw err;
          const have = (await balancesOf(trx, input.id))[c.asset].available;
          throw conflict(`可用余额不足，当前可用 ${formatAsset(have, c.asset)} ${c.asset}`);
        }
        row = { id: Number(m.id), status: m.status, level: m.level, zone_id: m.zone_id };
        const shown = `${c.amount > 0n ? '+' : ''}${formatAsset(c.amount, c.asset)} ${c.asset}`;
        summary = `调整会员 ${who} 余额 ${shown}，备注：${c.remark}`;
        extra = {
          balance: {
            asset: c.asset,
            available: formatAsset(result.available, c.asset),
            frozen: formatAsset(result.frozen, c.asset),
            billId: result.billId,
          },
        };
        break;
      }
    }
    await writeOpLog(trx, actor, { code, target: `member#${m.id} (${m.uid})`, summary }, now);
    return {
      id: Number(row.id),
      status: row.status as 1 | 2 | 3,
      level: row.level as 0 | 1 | 2 | 3 | 4 | 5,
      zoneId: row.zone_id == null ? null : Number(row.zone_id),
      ...extra,
    };
  });
}

// ---- zones ----

export interface ZoneListInput {
  page?: number;
  size?: number;
  sort?: ZoneSort;
  order?: 'asc' | 'desc';
  name?: string;
  status?: number;
}

export async function listZones(ctx: Ctx, q: ZoneListInput) {
  const page = q.page ?? 1;
  const size = q.size ?? 20;
  const sort = q.sort ?? 'sort';
  const { rows, total } = await findZones(
    ctx.db,
    { name: q.name?.trim() || undefined, status: q.status },
    { offset: (page - 1) * size, limit: size, sort, order: q.order ?? (sort === 'sort' ? 'asc' : 'desc') },
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      leaderUid: r.leader_uid,
      leaderNickname: r.leader_nickname ?? null,
      memberCount: Number(r.member_count),
      status: r.status as 0 | 1,
      sort: r.sort,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    })),
    total,
    page,
    size,
  };
}

export interface ZoneOptInput {
  action: ZoneAction;
  id?: number;
  name?: string;
  leaderUid?: string;
  sort?: number;
}

/** Creates a zone (demo data and zone/opt create). */
export async function createZone(trx: Db, v: { name: string; leaderUid?: string | null; sort?: number }, now: number) {
  const name = v.name.trim();
  if (!name) throw badInput(ZoneMessages.nameRequired);
  if (await zoneNameTaken(trx, name)) throw badInput(ZoneMessages.nameTaken);
  const leaderUid = v.leaderUid?.trim() || null;
  if (leaderUid && !(await memberByUid(trx, leaderUid))) throw badInput(ZoneMessages.leaderMissing);
  try {
    return await insertZone(trx, { name, leaderUid, sort: v.sort ?? 0, now });
  } catch (err) {
    if (isUniqueViolation(err)) throw badInput(ZoneMessages.nameTaken);
    throw err;
  }
}

export async function zoneOpt(ctx: Ctx, actor: Actor, input: ZoneOptInput) {
  const now = ctx.clock.now();
  if (input.action !== 'create' && input.id === undefined) throw badInput(ZoneMessages.idRequired);
  if (input.action === 'create' && !input.name?.trim()) throw badInput(ZoneMessages.nameRequired);
  return ctx.db.transaction().execute(async (trx) => {
    let id: number;
    let summary: string;
    if (input.action === 'create') {
      id = await createZone(trx, { name: input.name!, leaderUid: input.leaderUid, sort: input.sort }, now);
      summary = `新增专区 ${input.name!.trim()}`;
    } else {
      id = input.id!;
      const zone = await zoneById(trx, id);
      if (!zone) throw notFound(ZoneMessages.notFound);
      switch (input.action) {
        case 'update': {
          const name = input.name === undefined ? undefined : input.name.trim();
          if (name !== undefined && !name) throw badInput(ZoneMessages.nameRequired);
          if (name !== undefined && (await zoneNameTaken(trx, name, id))) throw badInput(ZoneMessages.nameTaken);
          const leaderUid = input.leaderUid === undefined ? undefined : input.leaderUid.trim() || null;
          if (leaderUid && !(await memberByUid(trx, leaderUid))) throw badInput(ZoneMessages.leaderMissing);
          try {
            if (!(await updateZone(trx, id, { name, leaderUid, sort: input.sort, now })))
              throw notFound(ZoneMessages.notFound);
          } catch (err) {
            if (isUniqueViolation(err)) throw badInput(ZoneMessages.nameTaken);
            throw err;
          }
          const parts = [
            name !== undefined && name !== zone.name ? `名称 ${zone.name} → ${name}` : '',
            leaderUid !== undefined && leaderUid !== zone.leader_uid
              ? `负责人 ${zone.leader_uid ?? '无'} → ${leaderUid ?? '无'}`
              : '',
            input.sort !== undefined && input.sort !== zone.sort ? `排序 ${zone.sort} → ${input.sort}` : '',
          ].filter(Boolean);
          summary = `修改专区 ${zone.name}${parts.length ? `：${parts.join('，')}` : ''}`;
          break;
        }
        case 'enable':
          if (!(await moveZoneStatus(trx, id, 0, 1, now))) throw conflict(ZoneMessages.alreadyEnabled);
          summary = `启用专区 ${zone.name}`;
          break;
        case 'disable':
          if (!(await moveZoneStatus(trx, id, 1, 0, now))) throw conflict(ZoneMessages.alreadyDisabled);
          summary = `停用专区 ${zone.name}`;
          break;
        case 'delete':
          if (!(await deleteEmptyZone(trx, id))) throw conflict(ZoneMessages.hasMembers);
          summary = `删除专区 ${zone.name}`;
          break;
        default:
          throw badInput('操作取值无效');
      }
    }
    await writeOpLog(trx, actor, { code: 'zone:opt', target: `zone#${id}`, summary }, now);
    return { id };
  });
}

// ---- asset query ----

export interface AssetListInput {
  page?: number;
  size?: number;
  sort?: AssetSort;
  order?: 'asc' | 'desc';
  keyword?: string;
  asset?: Asset;
  minTotal?: string;
}

/** The most places any asset has: a minimum is read at this precision, then rounded up per asset. */
const MAX_PLACES = Math.max(...Assets.map((a) => AssetDecimals[a]));

export async function listAssets(ctx: Ctx, q: AssetListInput) {
  const page = q.page ?? 1;
  const size = q.size ?? 20;
  const assets: readonly Asset[] = q.asset ? [q.asset] : Assets;
  let minTotal: Record<string, bigint> | undefined;
  if (q.minTotal?.trim()) {
    const r = parseMinor(q.minTotal, MAX_PLACES, { allowZero: true });
    if (!r.ok) throw badInput(`最低总额${moneyReasonText[r.reason]}`);
    minTotal = {};
    for (const a of assets) {
      // ceil(value / 10^(MAX_PLACES − decimals)): "at least 0.001" of a 2-place asset is at least 0.01.
      const div = 10n ** BigInt(MAX_PLACES - AssetDecimals[a]);
      minTotal[a] = (r.value + div - 1n) / div;
    }
  }
  const keyword = q.keyword?.trim() || undefined;
  // Every account of the assets shown: each member has one account per asset (opened with the member),
  // and what they hold is what the bills moved (the ledger invariant), so nothing needs summing here.
  let everything: AccountSums[] | undefined;
  if (!keyword && !minTotal) {
    const [members, totals] = await Promise.all([countMembersByKey(ctx.db, {}), ledgerTotals(ctx.db)]);
    const byAsset = new Map(totals.map((t) => [t.asset, t]));
    everything = assets.map((asset) => ({
      asset,
      n: members,
      available: byAsset.get(asset)?.available ?? '0',
      frozen: byAsset.get(asset)?.frozen ?? '0',
    }));
  }
  const { rows, sums, total } = await findAccounts(
    ctx.db,
    { keyword, asset: q.asset, minTotal },
    { offset: (page - 1) * size, limit: size, sort: q.sort ?? 'memberId', order: q.order ?? 'desc' },
    everything,
  );
  const byAsset = new Map(sums.map((s) => [s.asset, s]));
  return {
    list: rows.map((r) => {
      const asset = r.asset as Asset;
      const available = toMinor(r.available);
      const frozen = toMinor(r.frozen);
      return {
        memberId: Number(r.member_id),
        uid: r.uid,
        phone: r.phone,
        nickname: r.nickname,
        asset,
        available: formatAsset(available, asset),
        frozen: formatAsset(frozen, asset),
        total: formatAsset(available + frozen, asset),
        updatedAt: Number(r.updated_at),
      };
    }),
    total,
    page,
    size,
    sum: assets.map((asset) => {
      const s = byAsset.get(asset);
      const available = toMinor(s?.available ?? '0');
      const frozen = toMinor(s?.frozen ?? '0');
      return {
        asset,
        available: formatAsset(available, asset),
        frozen: formatAsset(frozen, asset),
        total: formatAsset(available + frozen, asset),
      };
    }),
  };
}
