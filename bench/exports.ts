/**
 * Export suite: each export of the API at full size (every row of its table, no filter), xlsx and
 * csv, downloaded from a freshly started real server. Rows per second = rows in the table / seconds
 * from request to the last byte; memory = the server process's VmRSS sampled every 25 ms and its
 * VmHWM (peak resident set since start; the server is fresh, so the peak is the export's).
 */
import { sql } from 'kysely';
import { createDb } from '../server/db/dialect';
import { fmt, log, PG_SCHEMA, PG_URL, SQLITE_FILE } from './lib/args';
import { cpuMsOf, memOf, startServer } from './lib/proc';
import { login } from './api/suite';
import { PAYMENT_TABLES } from './data/records';

export interface ExportResult {
  db: string;
  name: string;
  format: 'xlsx' | 'csv';
  rows: number;
  csvLines?: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  /** CPU seconds the server spent on the export, and rows per CPU second (robust on a shared machine). */
  cpuSeconds?: number;
  rowsPerCpuSecond?: number;
  baselineRss: number;
  peakRss: number;
  hwm: number;
  fileName: string | null;
  skipped?: string;
}

const EXPORTS = [{ name: 'payment/export', path: '/v1/admin/payment/export', tables: PAYMENT_TABLES }];

async function tableRows(db: 'sqlite' | 'pg', tables: string[]): Promise<number | null> {
  const h = createDb(db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL, {
    pgSchema: db === 'pg' ? PG_SCHEMA : undefined,
  });
  try {
    for (const t of tables) {
      try {
        const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(h.db);
        return Number(r.rows[0].n);
      } catch {
        // not this name
      }
    }
    return null;
  } finally {
    await h.close();
  }
}

export async function runExports(o: {
  db: 'sqlite' | 'pg';
  password: string;
  formats?: string[];
}): Promise<ExportResult[]> {
  const out: ExportResult[] = [];
  for (const ex of EXPORTS) {
    const rows = await tableRows(o.db, ex.tables);
    for (const format of ['xlsx', 'csv'] as const) {
      if (o.formats?.length && !o.formats.includes(format)) continue;
      const server = await startServer('bench/api/server.ts', ['--mode', 'real', '--db', o.db]);
      try {
        const token = await login(server.port, o.password);
        const pid = server.proc.pid!;
        await new Promise((r) => setTimeout(r, 300));
        const baselineRss = memOf(pid)?.rss ?? 0;
        let peakRss = baselineRss;
        const timer = setInterval(() => {
          const m = memOf(pid);
          if (m && m.rss > peakRss) peakRss = m.rss;
        }, 25);
        const cpu0 = cpuMsOf(pid);
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${server.port}${ex.path}?format=${format}`, {
          headers: { authorization: token },
        });
        const type = res.headers.get('content-type') ?? '';
        const disp = res.headers.get('content-disposition');
        let bytes = 0;
        let lines = 0;
        let head = '';
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.length;
          if (head.length < 400) head += Buffer.from(value.subarray(0, 400)).toString('utf8');
          if (format === 'csv') for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
        }
        const seconds = (performance.now() - t0) / 1000;
        const cpuSeconds = (cpuMsOf(pid) - cpu0) / 1000;
        clearInterval(timer);
        const hwm = memOf(pid)?.hwm ?? 0;
        const fileName = disp
          ? decodeURIComponent(/filename\*?=(?:UTF-8'')?"?([^";]+)/i.exec(disp)?.[1] ?? disp)
          : null;
        if (res.status !== 200 || type.includes('application/json')) {
          out.push({
            db: o.db,
            name: ex.name,
            format,
            rows: 0,
            bytes,
            seconds,
            rowsPerSecond: 0,
            baselineRss,
            peakRss,
            hwm,
            fileName,
            skipped: `HTTP ${res.status} ${head.slice(0, 120)}`,
          });
          log(`export ${o.db} ${ex.name} ${format}: skipped (${res.status} ${head.slice(0, 120)})`);
          continue;
        }
        const n = rows ?? (format === 'csv' ? lines - 1 : 0);
        const r: ExportResult = {
          db: o.db,
          name: ex.name,
          format,
          rows: n,
          csvLines: format === 'csv' ? lines : undefined,
          bytes,
          seconds,
          rowsPerSecond: n / seconds,
          cpuSeconds,
          rowsPerCpuSecond: cpuSeconds > 0 ? n / cpuSeconds : undefined,
          baselineRss,
          peakRss,
          hwm,
          fileName,
        };
        out.push(r);
        const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
        log(
          `export ${o.db} ${ex.name} ${format}: ${fmt(n)} rows in ${seconds.toFixed(1)} s = ${fmt(r.rowsPerSecond)} rows/s (server CPU ${cpuSeconds.toFixed(1)} s = ${fmt(r.rowsPerCpuSecond ?? 0)} rows per CPU second), ${mb(bytes)} body, RSS ${mb(baselineRss)} → peak ${mb(peakRss)} (VmHWM ${mb(hwm)}), file ${fileName}${format === 'csv' ? `, ${fmt(lines)} lines` : ''}`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  return out;
}
