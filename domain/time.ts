/** Times are epoch ms in UTC on the wire and in the database, shown in Asia/Shanghai (UTC+8, no DST). */
export const SHANGHAI_OFFSET = 8 * 3600_000;

/** Formats epoch ms as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const d = new Date(ms + SHANGHAI_OFFSET);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written `YYYY-MM-DD` ('2026-02-30' is not one). */
export function isDay(text: string | undefined): text is string {
  const m = text ? DAY.exec(text) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
