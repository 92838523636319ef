/**
 * Export suite: each export of the API at full size (every row of its table, no filter: payments,
 * mall orders, pledges, deposits), xlsx and csv, downloaded from a freshly started server, one server
 * per export so its peak is that export's.
 *
 *   npm run bench -- --suites export --db sqlite|pg|both [--formats xlsx,csv]
 *       [--exports order,payment,pledge,deposit]
 *       [--server build|dist|babel] [--node-flags="--max-semi-space-size=32"] [--runs 3]
 *       [--accept-encoding identity]
 *   node -r ./bench/register.js bench/exports.ts --db sqlite …   (the same, this suite alone)
 *
 * What runs (`--server`):
 * - `build` (default): what production runs. The current source is compiled by the Babel command of
 *   `npm run build:server`, into bench/out/server-build (so the checkout's dist/ is left alone), and
 *   started as `npm run serve` starts it: `node <the Node flags of package.json "serve"> main.js`, with
 *   DATABASE_URL = the bench database (`sqlite:bench/out/bench.db`, or PostgreSQL with
 *   `?options=-c search_path=bench`), DEMO_DATA=false, ADMIN_PASSWORD = the bench's, HOST 127.0.0.1, a
 *   free PORT, LOG_LEVEL=info (the default). main.ts migrates and syncs permissions first, as in
 *   production (nothing to do on an up-to-date bench database).
 * - `dist`: dist/server/main.js as the last `npm run build:server` left it, started the same way.
 * - a path to a main.js: that build, started the same way (e.g. an older commit compiled elsewhere
 *   under bench/out, to measure before and after on the same machine at the same time).
 * - `babel`: the previous path, bench/api/server.ts --mode real, which compiles the server in-process
 *   through @babel/register: Babel and its caches stay in the heap (idle RSS ~170 MB instead of ~60).
 *   Kept to compare with older figures only.
 * `--node-flags` adds Node flags after those of "serve" (to try GC settings).
 *
 * Measured per export: rows per second = rows in the table / seconds from request to the last byte
 * (asked for with Chromium's Accept-Encoding, so the CSV comes as Brotli, which fetch decompresses here:
 * the server pays for compressing it, and this process for decompressing it, on the same cores); server CPU seconds
 * (user + system of the server process, every thread) and, on PostgreSQL, the CPU of the server's
 * backends (found by PGAPPNAME); RSS = the server's VmRSS sampled every 25 ms, baseline = after login
 * and 300 ms idle, and VmHWM. bench/lib/mem-probe.js, preloaded into the server (a 20 ms timer),
 * records process.memoryUsage() and V8's heap spaces at the moment of the highest RSS, so the peak
 * splits into heap (new and old space), external/arrayBuffers and the rest (native: SQLite's page
 * cache, zlib, code). The load average at the start of each export is recorded: the machine is
 * shared, so CPU seconds are the robust figure, wall time is not.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../server/db/dialect';
import {
  ADMIN_PASSWORD,
  fmt,
  intFlag,
  log,
  OUT_DIR,
  parseFlags,
  PG_SCHEMA,
  PG_URL,
  SQLITE_FILE,
  strFlag,
} from './lib/args';
import { cpuMsOf, freePort, median, memOf, startServer, watchBackends, type Child } from './lib/proc';
import { login } from './api/suite';
import { PAYMENT_TABLES } from './data/records';

const ROOT = path.resolve(__dirname, '..');
const BUILD_DIR = path.join(OUT_DIR, 'server-build');
const PROBE = path.join(__dirname, 'lib/mem-probe.js');

/** build | dist | babel, or the path of a compiled main.js. */
export type ServerMode = string;

/** The Accept-Encoding header Chromium sends: the server answers a CSV with Brotli. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** process.memoryUsage() plus V8's heap space sizes, as bench/lib/mem-probe.js records them. */
export interface MemSample {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, number>;
}

export interface ExportResult {
  db: string;
  name: string;
  format: 'xlsx' | 'csv';
  server: ServerMode;
  nodeFlags: string[];
  rows: number;
  csvLines?: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  /** CPU seconds the server spent on the export, and rows per CPU second (robust on a shared machine). */
  cpuSeconds?: number;
  rowsPerCpuSecond?: number;
  /** PostgreSQL: CPU seconds of the server's backends during the export. */
  dbCpuSeconds?: number;
  baselineRss: number;
  peakRss: number;
  hwm: number;
  /** The server's memory when idle (after login) and at its highest RSS during the export. */
  idleMem?: MemSample;
  peakMem?: MemSample;
  loadAverage: number[];
  fileName: string | null;
  skipped?: string;
}

const EXPORTS = [
  { name: 'payment/export', path: '/v1/admin/payment/export', tables: PAYMENT_TABLES },
  { name: 'order/export', path: '/v1/admin/order/export', tables: ['mall_order'] },
  { name: 'pledge/export', path: '/v1/admin/pledge/export', tables: ['pledge'] },
  { name: 'deposit/export', path: '/v1/admin/deposit/export', tables: ['deposit'] },
];

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

/** The Node flags `npm run serve` starts the server with (package.json "serve": `node <flags> <script>`). */
export function serveNodeFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = pkg.scripts.serve.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json "serve" does not start with node: ${pkg.scripts.serve}`);
  return words.slice(1, -1);
}

let built = false;

/** Compiles server/ and domain/ as `npm run build:server` does, into bench/out/server-build. */
function buildServer(): string {
  const main = path.join(BUILD_DIR, 'server/main.js');
  if (built) return main;
  const babel = path.join(ROOT, 'node_modules/.bin/babel');
  for (const dir of ['server', 'domain']) {
    const p = spawnSync(
      babel,
      [
        dir,
        '--out-dir',
        path.join(BUILD_DIR, dir),
        '--extensions',
        '.ts',
        // The data files next to the code (server/common-passwords.txt), as build:server copies them.
        ...(dir === 'server' ? ['--copy-files'] : []),
        '--delete-dir-on-start',
        '--quiet',
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (p.status !== 0) throw new Error(`babel ${dir} exited with ${p.status}`);
  }
  built = true;
  return main;
}

/** The PostgreSQL URL of the bench schema, as DATABASE_URL can carry it (libpq `options`). */
export const pgBenchUrl = () =>
  `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${PG_SCHEMA}`)}`;

/** Starts the compiled server (main.js) as `npm run serve` does; resolves once it listens. */
async function startCompiled(
  main: string,
  db: 'sqlite' | 'pg',
  nodeFlags: string[],
  env: NodeJS.ProcessEnv,
): Promise<Child> {
  const port = await freePort();
  const proc: ChildProcess = spawn(process.execPath, [...nodeFlags, '-r', PROBE, main], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : pgBenchUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      // Not the daily settlement: the bench data set leaves yesterday unsettled (for the settle suite),
      // and a server settling it at start would share the machine with the export being measured.
      SETTLE_ENABLED: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    // The banner goes to stderr (stdout is the JSON log); either stream may carry it.
    const onData = (d: Buffer) => {
      if (out.length < 1e5) out += d.toString();
      if (out.includes('running at')) {
        proc.stdout!.off('data', onData);
        proc.stderr!.off('data', onData);
        proc.stdout!.resume(); // keep draining the request log
        resolve({
          proc,
          port,
          stop: () =>
            new Promise<void>((res) => {
              if (proc.exitCode !== null) return res();
              proc.once('exit', () => res());
              proc.kill('SIGTERM');
            }),
        });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.stderr!.on('data', (d) => (err += d.toString()));
    proc.once('exit', (code) => reject(new Error(`${main} exited with ${code} before listening: ${err || out}`)));
  });
}

/** Asks the probe in `pid` for its peak since the last call (and resets it). */
async function probe(pid: number, file: string): Promise<{ peak: MemSample; now: MemSample } | undefined> {
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 20));
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as { peak: MemSample; now: MemSample };
    } catch {
      // not written yet
    }
  }
  return undefined;
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;

/** "rss 240 = heap 150 (new 16, old 120) + external 20 + other 70" */
export function memLine(m: MemSample | undefined): string {
  if (!m) return '–';
  const s = m.spaces;
  const other = m.rss - m.heapTotal - m.external;
  return `rss ${mb(m.rss)} = heap ${mb(m.heapTotal)} (used ${mb(m.heapUsed)}; new ${mb(s.new_space ?? 0)}, old ${mb(s.old_space ?? 0)}, large ${mb(s.large_object_space ?? 0)}) + external ${mb(m.external)} (buffers ${mb(m.arrayBuffers)}) + native/other ${mb(other)}`;
}

export async function runExports(o: {
  db: 'sqlite' | 'pg';
  password: string;
  formats?: string[];
  /** Only the exports whose name starts with one of these (payment, order, pledge, deposit). */
  exports?: string[];
  /** Defaults from the command line (--server, --node-flags, --runs), so bench/run.ts passes them on. */
  server?: ServerMode;
  nodeFlags?: string[];
  runs?: number;
}): Promise<ExportResult[]> {
  const flags = parseFlags();
  const server = o.server ?? (strFlag(flags, 'server', 'build') as ServerMode);
  if (!['build', 'dist', 'babel'].includes(server) && !fs.existsSync(server))
    throw new Error(`--server build|dist|babel|<main.js>, got ${server}`);
  const extra = o.nodeFlags ?? strFlag(flags, 'node-flags', '').split(/\s+/).filter(Boolean);
  const runs = o.runs ?? intFlag(flags, 'runs', 1);
  const nodeFlags = server === 'babel' ? extra : [...serveNodeFlags(), ...extra];
  const main =
    server === 'build'
      ? buildServer()
      : server === 'dist'
        ? path.join(ROOT, 'dist/server/main.js')
        : server === 'babel'
          ? undefined
          : path.resolve(server);
  const memFile = path.join(OUT_DIR, `mem-probe-${process.pid}.json`);
  const appName = `bench-export-${process.pid}`;
  log(
    `export ${o.db}: server ${server}${main ? ` (${path.relative(ROOT, main)})` : ''}, node flags [${nodeFlags.join(' ')}]`,
  );
  const out: ExportResult[] = [];
  for (const ex of EXPORTS) {
    if (o.exports?.length && !o.exports.some((x) => ex.name.startsWith(x))) continue;
    const rows = await tableRows(o.db, ex.tables);
    for (const format of ['xlsx', 'csv'] as const) {
      if (o.formats?.length && !o.formats.includes(format)) continue;
      for (let run = 0; run < runs; run++) {
        const env = { BENCH_MEM_FILE: memFile, PGAPPNAME: appName };
        const child = main
          ? await startCompiled(main, o.db, nodeFlags, env)
          : await startServer('bench/api/server.ts', ['--mode', 'real', '--db', o.db], {
              ...env,
              NODE_OPTIONS: [...nodeFlags, '-r', PROBE].join(' '),
            });
        try {
          out.push(await exportOnce(child, { ...o, ex, format, rows, server, nodeFlags, memFile, appName }));
        } finally {
          await child.stop();
          fs.rmSync(memFile, { force: true });
        }
      }
    }
  }
  if (runs > 1) {
    for (const e of out.filter((_, i) => i % runs === 0)) {
      const same = out.filter((x) => x.name === e.name && x.format === e.format && !x.skipped);
      log(
        `export ${o.db} ${e.name} ${e.format}: median of ${same.length}: ${fmt(median(same.map((x) => x.rowsPerSecond)))} rows/s, ${median(same.map((x) => x.cpuSeconds ?? NaN)).toFixed(1)} CPU s, peak ${mb(median(same.map((x) => x.peakRss)))}`,
      );
    }
  }
  return out;
}

async function exportOnce(
  server: Child,
  o: {
    db: 'sqlite' | 'pg';
    password: string;
    ex: (typeof EXPORTS)[number];
    format: 'xlsx' | 'csv';
    rows: number | null;
    server: ServerMode;
    nodeFlags: string[];
    memFile: string;
    appName: string;
  },
): Promise<ExportResult> {
  const { ex, format } = o;
  const token = await login(server.port, o.password);
  const pid = server.proc.pid!;
  await new Promise((r) => setTimeout(r, 300));
  const idle = await probe(pid, o.memFile);
  const baselineRss = memOf(pid)?.rss ?? 0;
  let peakRss = baselineRss;
  const timer = setInterval(() => {
    const m = memOf(pid);
    if (m && m.rss > peakRss) peakRss = m.rss;
  }, 25);
  const loadAverage = os.loadavg().map((x) => Math.round(x * 100) / 100);
  // The export's worker opens a backend of its own and closes it when done: watched while it runs.
  const backends = o.db === 'pg' ? await watchBackends(o.appName, PG_URL) : undefined;
  const cpu0 = cpuMsOf(pid);
  const t0 = performance.now();
  let status = 0;
  let type = '';
  let disp: string | null = null;
  let encoding = '';
  let bytes = 0;
  let lines = 0;
  let head = '';
  let dbCpuSeconds: number | undefined;
  // What Chromium asks for, by default: Node's fetch alone asks for gzip and deflate only, and the CSV then
  // came gzip-compressed, which costs the server ~1.7× the CPU of the Brotli a browser gets.
  // --accept-encoding identity: the file uncompressed.
  const acceptEncoding = strFlag(parseFlags(), 'accept-encoding', BROWSER_ACCEPT_ENCODING);
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}${ex.path}?format=${format}`, {
      headers: { authorization: token, 'accept-encoding': acceptEncoding },
    });
    status = res.status;
    type = res.headers.get('content-type') ?? '';
    disp = res.headers.get('content-disposition');
    encoding = res.headers.get('content-encoding') ?? 'identity';
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (head.length < 400) head += Buffer.from(value.subarray(0, 400)).toString('utf8');
      // indexOf (memchr), not a loop over every byte: this client shares the machine's cores with the server.
      if (format === 'csv') for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines++;
    }
  } finally {
    dbCpuSeconds = await backends?.stop();
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = (cpuMsOf(pid) - cpu0) / 1000;
  const hwm = memOf(pid)?.hwm ?? 0;
  const mem = await probe(pid, o.memFile);
  const fileName = disp ? decodeURIComponent(/filename\*?=(?:UTF-8'')?"?([^";]+)/i.exec(disp)?.[1] ?? disp) : null;
  const base = {
    db: o.db,
    name: ex.name,
    format,
    server: o.server,
    nodeFlags: o.nodeFlags,
    bytes,
    seconds,
    baselineRss,
    peakRss,
    hwm,
    idleMem: idle?.now,
    peakMem: mem?.peak,
    loadAverage,
    fileName,
  };
  if (status !== 200 || type.includes('application/json')) {
    log(`export ${o.db} ${ex.name} ${format}: skipped (${status} ${head.slice(0, 120)})`);
    return { ...base, rows: 0, rowsPerSecond: 0, skipped: `HTTP ${status} ${head.slice(0, 120)}` };
  }
  const n = o.rows ?? (format === 'csv' ? lines - 1 : 0);
  const r: ExportResult = {
    ...base,
    rows: n,
    csvLines: format === 'csv' ? lines : undefined,
    rowsPerSecond: n / seconds,
    cpuSeconds,
    rowsPerCpuSecond: cpuSeconds > 0 ? n / cpuSeconds : undefined,
    dbCpuSeconds,
  };
  log(
    `export ${o.db} ${ex.name} ${format} [${o.server}${o.nodeFlags.length ? ` ${o.nodeFlags.join(' ')}` : ''}]: ` +
      `${fmt(n)} rows in ${seconds.toFixed(1)} s = ${fmt(r.rowsPerSecond)} rows/s (server CPU ${cpuSeconds.toFixed(1)} s = ` +
      `${fmt(r.rowsPerCpuSecond ?? 0)} rows per CPU second${dbCpuSeconds === undefined ? '' : `; PostgreSQL backends ${dbCpuSeconds.toFixed(1)} CPU s`}), ` +
      `${mb(bytes)} body (sent ${encoding}), RSS ${mb(baselineRss)} → peak ${mb(peakRss)} (VmHWM ${mb(hwm)}), load ${loadAverage.join(' ')}, ` +
      `file ${fileName}${format === 'csv' ? `, ${fmt(lines)} lines` : ''}\n` +
      `    idle: ${memLine(idle?.now)}\n    peak: ${memLine(mem?.peak)}`,
  );
  return r;
}

if (require.main === module) {
  const flags = parseFlags();
  const which = strFlag(flags, 'db', 'sqlite');
  const formats = strFlag(flags, 'formats', '').split(',').filter(Boolean);
  const exports = strFlag(flags, 'exports', '').split(',').filter(Boolean);
  void (async () => {
    const all: ExportResult[] = [];
    for (const db of (which === 'both' ? ['sqlite', 'pg'] : [which]) as ('sqlite' | 'pg')[])
      all.push(...(await runExports({ db, password: ADMIN_PASSWORD, formats, exports })));
    const file = `${OUT_DIR}/exports-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
    fs.writeFileSync(file, JSON.stringify(all, null, 2));
    log(`results: ${file}`);
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
