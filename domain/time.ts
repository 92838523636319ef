/** Times are epoch ms in UTC on the wire and in the database, shown in Asia/Shanghai (UTC+8, no DST). */
export const SHANGHAI_OFFSET = 8 * 3600_000;

/** Formats epoch ms as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const d = new Date(ms + SHANGHAI_OFFSET);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
