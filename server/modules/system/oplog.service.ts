/** The operation log page (操作日志 tab): who did what, newest first. */
import { opLogCodeTitle } from '../../../domain/permissions';
import type { Ctx } from '../../context';
import { parseRange } from '../../range';
import { findOpLogs } from '../oplog/oplog.repository';

export async function listOpLogs(
  ctx: Ctx,
  q: {
    page?: number;
    size?: number;
    order?: 'asc' | 'desc';
    username?: string;
    code?: string;
    start?: string;
    end?: string;
  },
) {
  const page = q.page ?? 1;
  const size = q.size ?? 20;
  const { start, end } = parseRange(q);
  const { rows, total } = await findOpLogs(
    ctx.db,
    { username: q.username?.trim() || undefined, code: q.code?.trim() || undefined, start, end },
    { offset: (page - 1) * size, limit: size, order: q.order },
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
