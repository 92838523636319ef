/** Zones (专区, DOMAIN.md §3 Members): the list, and zone/opt (create, update, enable, disable, delete). */
import type { Actor, Ctx } from '../../context';
import type { Static } from '../../http/schemas';
import { pageOf } from '../../db/keyset';
import { isUniqueViolation } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { badInput, conflict, notFound } from '../../errors';
import { managerAction } from '../oplog/managerAction';
import type { Kysely, Transaction } from 'kysely';
import { memberByUid } from './members.repository';
import {
  deleteEmptyZone,
  findZones,
  insertZone,
  moveZoneStatus,
  updateZone,
  zoneById,
  zoneNameTaken,
} from './zones.repository';
import type { ZoneListQuery, ZoneOptBody } from './zones.schema';

type Db = Kysely<Database> | Transaction<Database>;

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

/** The list's query as its schema declares it. */
export type ZoneListInput = Static<typeof ZoneListQuery>;

export async function listZones(ctx: Ctx, q: ZoneListInput) {
  const { page, size, offset } = pageOf(q);
  const sort = q.sort ?? 'sort';
  const { rows, total } = await findZones(
    ctx.db,
    { name: q.name?.trim() || undefined, status: q.status },
    { offset, limit: size, sort, order: q.order ?? (sort === 'sort' ? 'asc' : 'desc') },
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

export type ZoneOptInput = Static<typeof ZoneOptBody>;

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
  return managerAction(
    ctx,
    actor,
    async ({ trx }) => {
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
      return { result: { id }, log: { code: 'zone:opt', target: `zone#${id}`, summary } };
    },
    now,
  );
}
