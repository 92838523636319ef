/** The operation log page (操作日志 tab): who did what, newest first. */
import { opLogCodeTitle } from '../../../domain/opLog';
import type { Ctx } from '../../context';
import type { Static } from '../../http/schemas';
import { pageOf } from '../../db/keyset';
import { parseRange } from '../../range';
import { findOpLogs } from '../oplog/oplog.repository';
import type { OpLogListQuery } from './oplog.schema';

export async function listOpLogs(ctx: Ctx, q: Static<typeof OpLogListQuery>) {
  const { page, size, offset } = pageOf(q);
  const { start, end } = parseRange(q);
  const { rows, total } = await findOpLogs(
    ctx.db,
    { username: q.username?.trim() || undefined, code: q.code?.trim() || undefined, start, end },
    { offset, limit: size, order: q.order },
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      managerId: Number(r.manager_id),
      username: r.username,
      code: r.permission_code,
      codeTitle: opLogCodeTitle(r.permission_code),
      target: r.target,
      summary: r.summary,
      ip: r.ip,
      createdAt: Number(r.created_at),
    })),
    total,
    page,
    size,
  };
}
