/**
 * member/opt: a manager's change to one member (freeze, unfreeze, ban withdrawals, level, zone, password,
 * balance adjustment), one transaction with one op-log row; state changes are conditional UPDATEs.
 */
import type { Static } from '@sinclair/typebox';
import type { MemberOptBody } from './members.schema';
import { type Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import {
  MemberActionLabels,
  MemberLevel,
  MemberStatus,
  MemberStatusActions,
  ZoneStatus,
  memberActionCode,
} from '../../../domain/members';
import { assetText, formatAsset, moneyRefusal, parseAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import { badInput, conflict, notFound } from '../../errors';
import { hashPassword, randomPassword } from '../../passwords';
import { applyChange, balancesOf, InsufficientBalance } from '../ledger/ledger.service';
import { managerAction } from '../oplog/managerAction';
import { memberById, moveMemberStatus, setMemberLevel, setMemberPassword, setMemberZone } from './members.repository';
import { MemberMessages } from './members.service';
import { changeZoneCount, zoneById } from './zones.repository';

export type MemberOptInput = Static<typeof MemberOptBody>;

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
  freeze: { ...MemberStatusActions.freeze, refused: MemberMessages.alreadyFrozen },
  unfreeze: { ...MemberStatusActions.unfreeze, refused: MemberMessages.notFrozen },
  banWithdraw: { ...MemberStatusActions.banWithdraw, refused: MemberMessages.cannotBan },
};

export async function memberOpt(ctx: Ctx, actor: Actor, input: MemberOptInput, guard: Guard) {
  const code = memberActionCode(input.action);
  guard(code);
  const c = checkInput(input);
  const passwordHash = c.action === 'resetPassword' ? await hashPassword(c.password) : undefined;
  const now = ctx.clock.now();
  return managerAction(
    ctx,
    actor,
    async ({ trx }) => {
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
          if (zone.status !== ZoneStatus.is.enabled) throw badInput(MemberMessages.zoneDisabled);
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
            throw conflict(`可用余额不足，当前可用 ${assetText(have, c.asset)}`);
          }
          row = { id: Number(m.id), status: m.status, level: m.level, zone_id: m.zone_id };
          const shown = `${c.amount > 0n ? '+' : ''}${assetText(c.amount, c.asset)}`;
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
      const result = {
        id: Number(row.id),
        status: row.status as 1 | 2 | 3,
        level: row.level as 0 | 1 | 2 | 3 | 4 | 5,
        zoneId: row.zone_id == null ? null : Number(row.zone_id),
        ...extra,
      };
      return { result, log: { code, target: `member#${m.id} (${m.uid})`, summary } };
    },
    now,
  );
}
