/**
 * API benchmark: each scenario against the REAL server (buildApp over the bench data, logged in with
 * a real token) and against the floor (bare Fastify running the very SQL the real server sent for that
 * request, captured at the driver). autocannon on loopback, N connections, a few seconds, repeated and
 * alternated real/floor; the report takes medians: req/s, p50, p95, p99 (exact, from every response's
 * latency) and the ratio real/floor.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { fmt, log, OUT_DIR, PG_URL } from '../lib/args';
import { cpuMsOfAll, median, percentile, serverPids, startServer, type Child } from '../lib/proc';
import type { CapturedQuery } from './server';
import type { Sample } from './samples';

export interface Scenario {
  name: string;
  /** Short description for the report. */
  what: string;
  path: string;
  query?: Record<string, string | number>;
  /** Which budget row it belongs to. */
  budget?: 'member' | 'bill' | 'economy' | 'stat';
}

export interface RunFigures {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  /**
   * CPU ms per response spent by the server process (and its PostgreSQL backends): unlike req/s it
   * barely depends on what else the machine runs, so it is the figure to compare on a shared machine.
   */
  cpuMs?: number;
}

export interface ScenarioResult {
  db: string;
  name: string;
  what: string;
  url: string;
  budget?: string;
  total?: unknown;
  rows?: number;
  sql: string[];
  /** Latency of one request alone (ms), from the capture call. */
  single?: number;
  real: RunFigures;
  floor: RunFigures | null;
  runs: { real: RunFigures[]; floor: RunFigures[] };
  ratio: number | null;
  /** CPU per request, real / floor. */
  cpuRatio?: number | null;
  note?: string;
  skipped?: string;
}

/** YYYY-MM-DD of epoch ms in Asia/Shanghai: what the console's date filter sends. */
const shanghaiDate = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

export function scenarios(s: Sample): Scenario[] {
  return [
    {
      name: 'baseline',
      what: 'user/list (3-row table): the fixed cost of a request',
      path: '/v1/admin/user/list',
      query: { page: 1, size: 20 },
    },
    {
      name: 'member-first',
      what: 'member/list page 1',
      path: '/v1/admin/member/list',
      query: { page: 1, size: 20 },
      budget: 'member',
    },
    {
      name: 'member-phone',
      what: `member/list phone prefix ${s.phonePrefix}`,
      path: '/v1/admin/member/list',
      query: { page: 1, size: 20, keyword: s.phonePrefix },
      budget: 'member',
    },
    {
      name: 'member-phone7',
      what: `member/list phone prefix ${s.phonePrefix7}`,
      path: '/v1/admin/member/list',
      query: { page: 1, size: 20, keyword: s.phonePrefix7 },
      budget: 'member',
    },
    {
      name: 'member-nick',
      what: `member/list nickname ${s.nickname}`,
      path: '/v1/admin/member/list',
      query: { page: 1, size: 20, keyword: s.nickname },
      budget: 'member',
    },
    {
      name: 'member-deep',
      what: `member/list page ${s.deepMemberPage} (by cursor)`,
      path: '/v1/admin/member/list',
      query: { page: s.deepMemberPage, size: 20, after: s.deepMemberCursor },
      budget: 'member',
    },
    { name: 'bill-first', what: 'bill page 1', path: '/v1/admin/bill', query: { page: 1, size: 20 }, budget: 'bill' },
    {
      name: 'bill-member',
      what: `bill of member uid ${s.busyUid}`,
      path: '/v1/admin/bill',
      query: { page: 1, size: 20, keyword: s.busyUid },
      budget: 'bill',
    },
    {
      name: 'bill-type-range',
      what: 'bill type 8 (质押收益), last 30 days (dates, as the console sends them)',
      path: '/v1/admin/bill',
      query: { page: 1, size: 20, type: 8, start: shanghaiDate(s.end - 29 * 86_400_000), end: shanghaiDate(s.end) },
      budget: 'bill',
    },
    {
      name: 'bill-asset',
      what: 'bill asset LZ',
      path: '/v1/admin/bill',
      query: { page: 1, size: 20, asset: 'LZ' },
      budget: 'bill',
    },
    {
      name: 'bill-deep',
      what: `bill page ${s.deepBillPage} (by cursor)`,
      path: '/v1/admin/bill',
      query: { page: s.deepBillPage, size: 20, after: s.deepBillCursor },
      budget: 'bill',
    },
    {
      name: 'withdraw-pending',
      what: 'withdraw/list type 1, 待审核',
      path: '/v1/admin/withdraw/list',
      query: { page: 1, size: 20, type: 1, status: 0 },
    },
    {
      name: 'withdraw-first',
      what: 'withdraw/list type 1, all',
      path: '/v1/admin/withdraw/list',
      query: { page: 1, size: 20, type: 1 },
    },
    {
      name: 'withdraw-member',
      what: `withdraw/list type 1 of member uid ${s.busyUid}`,
      path: '/v1/admin/withdraw/list',
      query: { page: 1, size: 20, type: 1, keyword: s.busyUid },
    },
    {
      name: 'deposit-first',
      what: 'deposit/list, all',
      path: '/v1/admin/deposit/list',
      query: { page: 1, size: 20 },
    },
    {
      name: 'deposit-pending',
      what: 'deposit/list 待确认',
      path: '/v1/admin/deposit/list',
      query: { page: 1, size: 20, status: 0 },
    },
    {
      name: 'payment-first',
      what: 'payment/list, all',
      path: '/v1/admin/payment/list',
      query: { page: 1, size: 20 },
    },
    {
      name: 'transfer-first',
      what: 'transfer/list, all',
      path: '/v1/admin/transfer/list',
      query: { page: 1, size: 20 },
    },
    {
      name: 'query-first',
      what: 'query/list (asset query), all',
      path: '/v1/admin/query/list',
      query: { page: 1, size: 20 },
    },
    {
      name: 'query-member',
      what: `query/list uid ${s.busyUid}`,
      path: '/v1/admin/query/list',
      query: { page: 1, size: 20, keyword: s.busyUid },
    },
    ...economyScenarios(s),
  ];
}

/** The LZ economy's lists (issue 11, budget p95 ≤ 20 ms): first page, a member's, a filter, a deep page. */
function economyScenarios(s: Sample): Scenario[] {
  const e = s.economy;
  if (!e) return [];
  const list = (
    name: string,
    path: string,
    what: string,
    filter: { label: string; query: Record<string, string | number> },
    deep: { page: number; cursor: string },
    member: Record<string, string | number> = { keyword: s.busyUid },
  ): Scenario[] => [
    { name: `${name}-first`, what: `${what} page 1`, path, query: { page: 1, size: 20 }, budget: 'economy' },
    {
      name: `${name}-member`,
      what: `${what} of member uid ${s.busyUid}`,
      path,
      query: { page: 1, size: 20, ...member },
      budget: 'economy',
    },
    {
      name: `${name}-filter`,
      what: `${what} ${filter.label}`,
      path,
      query: { page: 1, size: 20, ...filter.query },
      budget: 'economy',
    },
    {
      name: `${name}-deep`,
      what: `${what} page ${deep.page} (by cursor)`,
      path,
      query: { page: deep.page, size: 20, after: deep.cursor },
      budget: 'economy',
    },
  ];
  return [
    ...list(
      'pledge',
      '/v1/admin/pledge/list',
      'pledge/list',
      { label: 'mode 2, 质押中', query: { modeId: 2, status: 1 } },
      e.deepPledge,
    ),
    ...list(
      'pledge-release',
      '/v1/admin/pledge/release/list',
      'pledge/release/list',
      { label: `day ${e.lastDay}`, query: { start: e.lastDay, end: e.lastDay } },
      e.deepPledgeRelease,
    ),
    ...list(
      'seed',
      '/v1/admin/seed/list',
      'seed/list',
      { label: 'source 1 商城购买, 生长中', query: { source: 1, status: 1 } },
      e.deepSeed,
    ),
    ...list(
      'match',
      '/v1/admin/match/list',
      'match/list',
      { label: 'status 5 申诉中', query: { status: 5 } },
      e.deepMatch,
      { seller: s.busyUid },
    ),
    ...mallScenarios(s),
    ...statScenarios(),
  ];
}

/** 数据统计 over a week and a year, and the welcome page's waiting counts (issue 13, budget p95 ≤ 50 ms). */
function statScenarios(): Scenario[] {
  const day = (back: number) => new Date(Date.now() + 8 * 3_600_000 - back * 86_400_000).toISOString().slice(0, 10);
  return [
    {
      name: 'stat-week',
      what: 'stat, the last 7 days',
      path: '/v1/admin/stat',
      query: { start: day(6), end: day(0) },
      budget: 'stat',
    },
    {
      name: 'stat-year',
      what: 'stat, the last 366 days',
      path: '/v1/admin/stat',
      query: { start: day(365), end: day(0) },
      budget: 'stat',
    },
    { name: 'welcome', what: 'welcome (waiting counts)', path: '/v1/admin/welcome', budget: 'stat' },
  ];
}

/** The mall's lists (issue 12, budget p95 ≤ 20 ms): orders as the other economy lists, products, one product's orders. */
function mallScenarios(s: Sample): Scenario[] {
  const m = s.economy?.mall;
  if (!m) return [];
  const orders = '/v1/admin/order/list';
  const products = '/v1/admin/product/list';
  const page = { page: 1, size: 20 };
  return [
    { name: 'order-first', what: 'order/list page 1', path: orders, query: page, budget: 'economy' },
    {
      name: 'order-member',
      what: `order/list of member uid ${s.busyUid}`,
      path: orders,
      query: { ...page, keyword: s.busyUid },
      budget: 'economy',
    },
    {
      name: 'order-filter',
      what: 'order/list status 1 待发货',
      path: orders,
      query: { ...page, status: 1 },
      budget: 'economy',
    },
    {
      name: 'order-product',
      what: `order/list of product ${m.busyProductId} (the most sold)`,
      path: orders,
      query: { ...page, productId: m.busyProductId },
      budget: 'economy',
    },
    {
      name: 'order-deep',
      what: `order/list page ${m.deepOrder.page} (by cursor)`,
      path: orders,
      query: { page: m.deepOrder.page, size: 20, after: m.deepOrder.cursor },
      budget: 'economy',
    },
    { name: 'product-first', what: 'product/list page 1', path: products, query: page, budget: 'economy' },
    {
      name: 'product-filter',
      what: 'product/list name 保温杯, 上架',
      path: products,
      query: { ...page, name: '保温杯', status: 1 },
      budget: 'economy',
    },
    {
      name: 'product-deep',
      what: `product/list page ${m.deepProduct.page} (by cursor)`,
      path: products,
      query: { page: m.deepProduct.page, size: 20, after: m.deepProduct.cursor },
      budget: 'economy',
    },
  ];
}

/**
 * What the real server runs besides the handler, left out of the floor: the session lookup and its
 * last-seen touch, the role's grant lookup, and a connection's plan-mode SET. (It used to leave out
 * every statement naming manager or role, which took user/list's own statements away from its floor.)
 */
const AUTH_STATEMENTS = /\b(session|role_permission|login_attempt)\b|^\s*set\s+plan_cache_mode\b/i;

export function urlOf(sc: Scenario) {
  const q = new URLSearchParams(Object.entries(sc.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  return q ? `${sc.path}?${q}` : sc.path;
}

export async function login(port: number, password: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 200) throw new Error(`login failed: ${body.code} ${body.msg}`);
  return body.data.token;
}

/** What a run's CPU is charged to: the server's pid and, on PostgreSQL, its application_name. */
export interface CpuTarget {
  pid: number;
  appName: string | null;
}

export async function cannon(
  url: string,
  opts: {
    connections: number;
    duration: number;
    amount?: number;
    headers?: Record<string, string>;
    /** One session per connection, in turn (each connection is its own manager's console). */
    tokens?: string[];
    cpu?: CpuTarget;
  },
): Promise<RunFigures> {
  const pids = opts.cpu ? await serverPids(opts.cpu.pid, opts.cpu.appName, PG_URL) : [];
  const cpu0 = cpuMsOfAll(pids);
  const figures = await run(url, opts);
  if (opts.cpu) {
    // Backends the pool opened during the run count from zero; ones it closed are lost (rare: idle timeout).
    const after = await serverPids(opts.cpu.pid, opts.cpu.appName, PG_URL);
    const fresh = after.filter((p) => !pids.includes(p));
    const used = cpuMsOfAll(pids) - cpu0 + cpuMsOfAll(fresh);
    figures.cpuMs = figures.rps ? used / (figures.rps * figures.seconds) : NaN;
  }
  return figures;
}

/**
 * One autocannon run: for `duration` seconds, or, given `amount`, until that many requests were answered
 * (the smoke: every request counts, however slow the machine).
 */
function run(
  url: string,
  opts: { connections: number; duration: number; amount?: number; headers?: Record<string, string>; tokens?: string[] },
) {
  return new Promise<RunFigures & { seconds: number }>((resolve, reject) => {
    const lat: number[] = [];
    let client = 0;
    const tokens = opts.tokens;
    const t0 = performance.now();
    const inst = autocannon(
      {
        url,
        connections: opts.connections,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
        headers: opts.headers,
        ...(tokens?.length
          ? {
              setupClient: (c: { setHeaders(h: Record<string, string>): void }) =>
                c.setHeaders({ ...opts.headers, authorization: tokens[client++ % tokens.length] }),
            }
          : {}),
        // autocannon stops only at a sample tick (1 s by default): a run shorter than that ticks sooner.
        sampleInt: Math.min(1000, opts.duration * 1000),
      },
      (err, res) => {
        if (err) return reject(err);
        const seconds = opts.amount ? (performance.now() - t0) / 1000 : opts.duration;
        lat.sort((a, b) => a - b);
        resolve({
          rps: lat.length / seconds,
          seconds,
          p50: percentile(lat, 50),
          p95: percentile(lat, 95),
          p99: percentile(lat, 99),
          errors: res.errors + res.timeouts,
          non2xx: res.non2xx,
        });
      },
    );
    inst.on('response', (_c: unknown, _status: number, _bytes: number, time: number) => lat.push(time));
  });
}

/**
 * Waits until a server answers /healthz within 100 ms: requests of a slow scenario that autocannon
 * gave up on are still being computed (better-sqlite3 is synchronous), and must not poison the next run.
 */
export async function settle(base: string, maxMs = 120_000) {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    const t0 = performance.now();
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.text())
      .then(() => true)
      .catch(() => false);
    if (ok && performance.now() - t0 < 100) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A scenario slower than this alone gets one short run with two connections: its figure is clear. */
const SLOW_MS = 500;

const med = (runs: RunFigures[]): RunFigures => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p95: median(runs.map((r) => r.p95)),
  p99: median(runs.map((r) => r.p99)),
  errors: runs.reduce((a, r) => a + r.errors, 0),
  non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
  cpuMs: median(runs.map((r) => r.cpuMs ?? NaN).filter((x) => !Number.isNaN(x))),
});

export interface ApiOptions {
  db: 'sqlite' | 'pg';
  connections: number;
  /** Seconds per run (fractions allowed: the smoke runs 0.2 s). */
  duration: number;
  repeat: number;
  /** Warm each scenario with a 1 s run on both servers first (default true; the smoke skips it). */
  warm?: boolean;
  /** Each run sends this many requests instead of running `duration` seconds (the smoke). */
  amount?: number;
  only?: string[];
  password: string;
  sample: Sample;
}

export async function runApi(o: ApiOptions): Promise<ScenarioResult[]> {
  const list = scenarios(o.sample).filter((s) => !o.only?.length || o.only.some((p) => s.name.startsWith(p)));
  const app = (name: string) => (o.db === 'pg' ? { PGAPPNAME: name } : {});
  const cpuOf = (c: Child, name: string): CpuTarget => ({ pid: c.proc.pid!, appName: o.db === 'pg' ? name : null });
  const real = await startServer('bench/api/server.ts', ['--mode', 'real', '--db', o.db], {
    ...app('bench_real'),
    MAX_SESSIONS: String(sessionsFor(o.connections)),
  });
  let floor: Child | null = null;
  const results: ScenarioResult[] = [];
  try {
    const base = `http://127.0.0.1:${real.port}`;
    const token = await login(real.port, o.password);
    const headers = { authorization: token };
    // A session per connection, as that many managers would have: requests that share a session would
    // flatter anything that reads sessions together (server/db/coalesce.ts). The real server is started
    // with MAX_SESSIONS high enough that these logins end none of the others.
    const tokens = [token];
    while (tokens.length < Math.min(100, o.connections)) tokens.push(await login(real.port, o.password));
    const captured: Record<string, CapturedQuery[]> = {};
    const live: Scenario[] = [];
    const singles: Record<string, number> = {};
    for (const sc of list) {
      const url = urlOf(sc);
      await fetch(`${base}/__bench/capture`, {
        method: 'POST',
        body: '{"on":true}',
        headers: { 'content-type': 'application/json' },
      });
      const t0 = performance.now();
      const res = await fetch(base + url, { headers });
      const body = (await res.json().catch(() => ({}))) as { code?: number; msg?: string; data?: any };
      const single = performance.now() - t0;
      singles[sc.name] = single;
      const cap = (await (
        await fetch(`${base}/__bench/capture`, {
          method: 'POST',
          body: '{"on":false}',
          headers: { 'content-type': 'application/json' },
        })
      ).json()) as { queries: CapturedQuery[] };
      const queries = cap.queries.filter((q) => !AUTH_STATEMENTS.test(q.sql));
      const base0 = {
        db: o.db,
        name: sc.name,
        what: sc.what,
        url,
        budget: sc.budget,
        sql: queries.map((q) => q.sql),
        single,
      };
      if (res.status !== 200 || body.code !== 200) {
        results.push({
          ...base0,
          real: null as never,
          floor: null,
          runs: { real: [], floor: [] },
          ratio: null,
          skipped: `HTTP ${res.status} code ${body.code} ${body.msg ?? ''}`,
        });
        log(`api ${o.db} ${sc.name}: skipped (${res.status} ${body.code} ${body.msg ?? ''})`);
        continue;
      }
      captured[sc.name] = queries;
      (sc as Scenario & { total?: unknown; rows?: number }).total = body.data?.total;
      (sc as Scenario & { rows?: number }).rows = Array.isArray(body.data?.list) ? body.data.list.length : undefined;
      live.push(sc);
      log(
        `api ${o.db} ${sc.name}: ${single.toFixed(1)} ms alone, total ${JSON.stringify(body.data?.total)}, ${queries.length} statements`,
      );
    }
    const file = `${OUT_DIR}/scenarios-${o.db}.json`;
    fs.writeFileSync(file, JSON.stringify(captured, null, 1));
    floor = live.length
      ? await startServer(
          'bench/api/server.ts',
          ['--mode', 'floor', '--db', o.db, '--scenarios', file],
          app('bench_floor'),
        )
      : null;
    for (const sc of live) {
      const runs = { real: [] as RunFigures[], floor: [] as RunFigures[] };
      const realUrl = base + urlOf(sc);
      const floorUrl = `http://127.0.0.1:${floor!.port}/floor/${sc.name}`;
      const floorBase = `http://127.0.0.1:${floor!.port}`;
      const slow = singles[sc.name] > SLOW_MS;
      const conns = slow ? 2 : o.connections;
      const dur = slow ? Math.min(3, o.duration) : o.duration;
      const reps = slow ? 1 : o.repeat;
      const go = async (
        url: string,
        srvBase: string,
        extra: { headers?: Record<string, string>; tokens?: string[]; cpu?: CpuTarget },
      ) => {
        await settle(srvBase);
        return cannon(url, { connections: conns, duration: dur, amount: o.amount, ...extra });
      };
      // Warm both (page cache, JIT), then alternate so drift hits both sides alike.
      if (!slow && o.warm !== false) {
        await cannon(realUrl, { connections: o.connections, duration: 1, headers, tokens });
        await cannon(floorUrl, { connections: o.connections, duration: 1 });
      }
      for (let i = 0; i < reps; i++) {
        runs.real.push(await go(realUrl, base, { headers, tokens, cpu: cpuOf(real, 'bench_real') }));
        runs.floor.push(await go(floorUrl, floorBase, { cpu: cpuOf(floor!, 'bench_floor') }));
      }
      await Promise.all([settle(base), settle(floorBase)]);
      const r = med(runs.real);
      const f = med(runs.floor);
      const x = sc as Scenario & { total?: unknown; rows?: number };
      const out: ScenarioResult = {
        db: o.db,
        name: sc.name,
        what: sc.what,
        url: urlOf(sc),
        budget: sc.budget,
        total: x.total,
        rows: x.rows,
        sql: captured[sc.name].map((q) => q.sql),
        single: singles[sc.name],
        real: r,
        floor: f,
        runs,
        ratio: f.rps ? r.rps / f.rps : null,
        cpuRatio: r.cpuMs && f.cpuMs ? r.cpuMs / f.cpuMs : null,
        ...(slow
          ? { note: `slow alone (${singles[sc.name].toFixed(0)} ms): one ${dur} s run, ${conns} connections` }
          : {}),
      };
      results.push(out);
      log(
        `api ${o.db} ${sc.name}: real ${fmt(r.rps)} req/s p50 ${r.p50} p95 ${r.p95} p99 ${r.p99} ms | floor ${fmt(f.rps)} req/s p99 ${f.p99} ms | ratio ${out.ratio?.toFixed(2)} | CPU/req real ${r.cpuMs?.toFixed(2)} ms, floor ${f.cpuMs?.toFixed(2)} ms${r.non2xx || r.errors ? ` | ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
      );
    }
    // Every session must still be live: a refused request answers HTTP 200 with code 301/302, which
    // autocannon would count as served (and time the refusal's shorter path).
    for (const tk of tokens) {
      const body = (await (await fetch(`${base}/v1/admin/user/menu`, { headers: { authorization: tk } })).json()) as {
        code: number;
        msg: string;
      };
      if (body.code !== 200) throw new Error(`a bench session was refused after the runs: ${body.code} ${body.msg}`);
    }
  } finally {
    await real.stop();
    if (floor) await floor.stop();
  }
  return results;
}

/** Sessions the real server keeps per manager for the bench (server/config.ts takes 1–100). */
const sessionsFor = (connections: number) => Math.min(100, Math.max(5, connections));
