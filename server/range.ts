/** Date ranges arrive as ISO dates or epoch ms, meant in Asia/Shanghai (UTC+8, no DST). */
import { badInput } from './errors';
import { SHANGHAI_OFFSET } from '../domain/time';

/** Parses a range bound; a bare date means the start of that day (or, with `endOfDay`, its end). */
export function parseTimeBound(value: string | undefined, field: string, endOfDay = false): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d{10,13}$/.test(value)) return Number(value.length === 10 ? `${value}000` : value);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (!m) {
    const t = Date.parse(value);
    if (Number.isNaN(t)) throw badInput(`${field}格式不正确`);
    return t;
  }
  const [, y, mo, d, h, mi, s] = m;
  const local = Date.UTC(+y, +mo - 1, +d, h ? +h : 0, mi ? +mi : 0, s ? +s : 0);
  if (Number.isNaN(local) || +mo < 1 || +mo > 12 || +d < 1 || +d > 31) throw badInput(`${field}格式不正确`);
  const utc = local - SHANGHAI_OFFSET;
  return endOfDay && !h ? utc + 86_400_000 - 1 : utc;
}

export function parseRange(q: { start?: string; end?: string }) {
  const start = parseTimeBound(q.start, '开始时间');
  const end = parseTimeBound(q.end, '结束时间', true);
  if (start !== undefined && end !== undefined && start > end) throw badInput('开始时间不能晚于结束时间');
  return { start, end };
}
