/**
 * `npm run bench:soak -- [--seconds 600] [--connections 6] [--think 40] [--restart-at 0.5] [--no-restart]
 *     [--server build|dist] [--keep]`   (SOAK_SECONDS works too)
 *
 * A soak run: mixed reads and writes from the console's own calls against TWO server processes over
 * one PostgreSQL database, with one PostgreSQL restart in the middle. It answers: does a server
 * survive losing every connection at once, how long are requests refused, does every request after
 * recovery succeed, does memory stay flat, and does the ledger still balance.
 *
 * - Database: a fresh database `soak_<time>` on BENCH_PG_URL's server (dropped at the end unless
 *   --keep). The first server creates the schema and the demo data (first start, DEMO_DATA=true); the
 *   second starts on it when the first listens.
 * - Servers: what production runs — server/ and domain/ compiled by the Babel command of
 *   `npm run build:server` into bench/out/soak-build (the checkout's dist/ is left alone), started as
 *   `npm run serve` starts it (`node main.js`), HOST 127.0.0.1, LOG_LEVEL=warn, logs kept in
 *   bench/out/soak-<time>-s1.log / -s2.log. `--server dist`: dist/server/main.js as the last
 *   `npm run build:server` left it.
 * - Traffic: `--connections` loops, each sending one request at a time to the two servers in turn,
 *   `--think` ms apart. Reads: member list (pages, keyword), bill list, withdrawal lists (both types,
 *   pending and to pay), deposit list, payment-method list, asset query, transfer list, operation
 *   log, menu. Writes: member balance adjustment (±), withdrawal approve / reject / paid, deposit
 *   confirm / reject, payment-method approve / reject — each on a row the list just showed, as a
 *   manager clicks; two loops on one row get the 409 "already handled" that the console shows (a
 *   business answer, counted apart). New work arrives from the member side through server/simulate.ts
 *   (deposits, withdrawals, transfers, payment methods) once a second, in this process.
 * - Restart: at `--restart-at` × the duration, `pg_ctlcluster --skip-systemctl-redirect <ver> main
 *   restart` (fast shutdown: every backend is terminated). Recovered = the first moment after the
 *   command returned at which /healthz answers 200 on both servers (probed every 250 ms throughout).
 *   Every request is classed by the time it was sent: before the restart, in the outage (restart →
 *   recovered), after recovery.
 * - A failure: no HTTP answer (connection refused/reset, 30 s timeout), an HTTP status other than 200,
 *   or the envelope's code 500 (系统繁忙). Envelope codes 400/409 are the application's answers.
 * - Memory: VmRSS of each server every 5 s (every 1 s in runs under 5 minutes). Flat = the mean of
 *   the last tenth of the run within ±10 % of the mean of the second tenth (the first tenth is
 *   warm-up: JIT, caches, pools filling).
 * - At the end: ledgerViolations (every account = the sum of its bills) and every counter against
 *   its rows, as `npm run bench:data` checks them; both servers must still be the processes started.
 *
 * Writes bench/out/soak-<time>.json and prints a Markdown summary (docs/performance.md, "Soak").
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { systemClock } from '../server/clock';
import { loadConfig } from '../server/config';
import { createDb } from '../server/db/dialect';
import { depositStatViolations } from '../server/modules/deposits/deposits.repository';
import { billStatViolations, ledgerViolations } from '../server/modules/ledger/ledger.service';
import { memberCountViolations } from '../server/modules/members/counts.repository';
import { paymentStatViolations } from '../server/modules/payments/payments.repository';
import { transferStatViolations } from '../server/modules/transfers/transfers.repository';
import { withdrawalStatViolations } from '../server/modules/withdrawals/withdrawals.repository';
import { Simulator } from '../server/simulate';
import { intFlag, log, OUT_DIR, parseFlags, PG_URL, strFlag } from './lib/args';
import { freePort, memOf } from './lib/proc';

const ROOT = path.resolve(__dirname, '..');
const BUILD_DIR = path.join(OUT_DIR, 'soak-build');
/** Letters and digits, long: passes the ADMIN_PASSWORD check old and new. */
const PASSWORD = 'SoakRun2026x47q';
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Compiles server/ and domain/ as `npm run build:server` does, into bench/out/soak-build. */
function buildServer(): string {
  const babel = path.join(ROOT, 'node_modules/.bin/babel');
  for (const dir of ['server', 'domain']) {
    const p = spawnSync(
      babel,
      // --copy-files: data files next to the code (server/common-passwords.txt) go along, as in dist/.
      [
        dir,
        '--out-dir',
        path.join(BUILD_DIR, dir),
        '--extensions',
        '.ts',
        '--delete-dir-on-start',
        '--copy-files',
        '--quiet',
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (p.status !== 0) throw new Error(`babel ${dir} exited with ${p.status}`);
  }
  return path.join(BUILD_DIR, 'server/main.js');
}

interface Server {
  name: string;
  proc: ChildProcess;
  pid: number;
  port: number;
  logFile: string;
  exited: { code: number | null; signal: string | null } | null;
}

/** Starts main.js as `npm run serve` does; resolves once it prints its "running at" line. */
async function startServer(name: string, main: string, env: NodeJS.ProcessEnv, logFile: string): Promise<Server> {
  const port = await freePort();
  const logStream = fs.createWriteStream(logFile);
  const proc = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: Server = { name, proc, pid: proc.pid!, port, logFile, exited: null };
  proc.stdout!.pipe(logStream);
  proc.stderr!.pipe(logStream);
  proc.once('exit', (code, signal) => {
    server.exited = { code, signal };
    log(`${name} (pid ${server.pid}) exited: code ${code} signal ${signal}`);
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} did not start in 300 s: ${out}`));
    }, 300_000);
    // The banner goes to stderr (the JSON log is stdout); either stream may carry it.
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('running at')) {
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        proc.stderr!.off('data', onData);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening: ${out}`));
    });
  });
  return server;
}

interface Sample {
  /** ms since the start of the traffic, when the request was sent */
  t: number;
  what: string;
  server: number;
  ms: number;
  /** 'ok' | 'business' (an envelope 4xx) | 'fail' */
  result: 'ok' | 'business' | 'fail';
  detail?: string;
}

interface Envelope {
  code: number;
  msg: string;
  data: any;
}

async function main() {
  const flags = parseFlags();
  const seconds = intFlag(flags, 'seconds', Number(process.env.SOAK_SECONDS ?? 600));
  const connections = intFlag(flags, 'connections', 6);
  const think = intFlag(flags, 'think', 40);
  const restartAt = Number(strFlag(flags, 'restart-at', '0.5'));
  const restart = flags['no-restart'] !== true;
  const serverKind = strFlag(flags, 'server', 'build');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '_');
  fs.mkdirSync(OUT_DIR, { recursive: true });

  const pgVersions = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql').sort() : [];
  const pgVersion = pgVersions[pgVersions.length - 1];
  if (restart && !pgVersion) throw new Error('no /etc/postgresql/<version>: cannot restart PostgreSQL (--no-restart)');

  // A fresh database on the bench's PostgreSQL server.
  const dbName = `soak_${stamp.toLowerCase()}`;
  const adminUrl = new URL(PG_URL);
  const soakUrl = new URL(PG_URL);
  soakUrl.pathname = `/${dbName}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  log(`database ${dbName} created`);
  const servers: Server[] = [];
  // On any failure: stop what was started and drop the database.
  cleanup = async () => {
    for (const s of servers) if (s.exited === null) s.proc.kill('SIGKILL');
    if (flags.keep === true) return;
    const c = new pg.Client({ connectionString: adminUrl.toString() });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
  };

  const main = serverKind === 'dist' ? path.join(ROOT, 'dist/server/main.js') : buildServer();
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-soak-'));
  const env = {
    DATABASE_URL: soakUrl.toString(),
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    UPLOAD_DIR: uploadDir,
    WEB_DIR: path.join(uploadDir, 'no-web'),
  };
  servers.push(
    await startServer('s1', main, { ...env, DEMO_DATA: 'true' }, path.join(OUT_DIR, `soak-${stamp}-s1.log`)),
  );
  servers.push(
    await startServer('s2', main, { ...env, DEMO_DATA: 'false' }, path.join(OUT_DIR, `soak-${stamp}-s2.log`)),
  );
  log(`servers: ${servers.map((s) => `${s.name} pid ${s.pid} port ${s.port}`).join(', ')} (${main})`);

  // HTTP to the servers (127.0.0.1 only).
  const http = async (which: number, method: 'GET' | 'POST', url: string, body?: unknown, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${servers[which].port}${url}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: token } : {}),
        'accept-encoding': 'gzip, br',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, text };
  };
  const tokens: string[] = [];
  for (let i = 0; i < servers.length; i++) {
    const r = await http(i, 'POST', '/v1/admin/user/login', { username: 'admin', password: PASSWORD });
    const env0 = JSON.parse(r.text) as Envelope;
    if (env0.code !== 200) throw new Error(`login on ${servers[i].name}: ${r.text}`);
    tokens.push(env0.data.token);
  }

  const samples: Sample[] = [];
  let t0 = Date.now();
  const now = () => Date.now() - t0;
  let rr = 0;
  /** One console call, to the servers in turn; recorded. Answers the envelope or undefined. */
  const call = async (what: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const which = rr++ % servers.length;
    const t = now();
    const started = Date.now();
    let result: Sample['result'] = 'fail';
    let detail: string | undefined;
    let envelope: Envelope | undefined;
    try {
      const r = await http(which, method, url, body, tokens[which]);
      if (r.status !== 200) detail = `HTTP ${r.status}`;
      else {
        envelope = JSON.parse(r.text) as Envelope;
        if (envelope.code === 200) result = 'ok';
        else if (envelope.code >= 500) detail = `code ${envelope.code} ${envelope.msg}`;
        else result = 'business';
      }
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      detail = e.cause?.code ?? e.name ?? String(err);
    }
    samples.push({ t, what, server: which, ms: Date.now() - started, result, ...(detail ? { detail } : {}) });
    return result === 'ok' ? envelope : undefined;
  };

  // Rows the console would show, refreshed by the list calls themselves.
  let memberIds: number[] = [];
  const rnd = (n: number) => Math.floor(Math.random() * n);
  const pick = <T>(xs: readonly T[]): T | undefined => (xs.length ? xs[rnd(xs.length)] : undefined);
  const txHash = (chain: string) =>
    chain === 'ERC20' ? `0x${randomBytes(32).toString('hex')}` : randomBytes(32).toString('hex');
  const listQ = (extra: Record<string, string | number> = {}) =>
    `?${new URLSearchParams(Object.entries({ page: 1, size: 20, ...extra }).map(([k, v]) => [k, String(v)]))}`;

  const actions: Array<[weight: number, run: () => Promise<unknown>]> = [
    [
      14,
      async () => {
        const q: Record<string, string | number> =
          Math.random() < 0.2 ? { keyword: `1${rnd(10)}` } : { page: 1 + rnd(5) };
        const r = await call('member list', 'GET', `/v1/admin/member/list${listQ(q)}`);
        if (r?.data?.list?.length) memberIds = r.data.list.map((m: { id: number }) => m.id);
      },
    ],
    [10, () => call('bill list', 'GET', `/v1/admin/bill${listQ({ page: 1 + rnd(3) })}`)],
    [6, () => call('withdrawal list', 'GET', `/v1/admin/withdraw/list${listQ({ type: 1 + rnd(2) })}`)],
    [5, () => call('deposit list', 'GET', `/v1/admin/deposit/list${listQ()}`)],
    [4, () => call('asset query', 'GET', `/v1/admin/query/list${listQ()}`)],
    [3, () => call('transfer list', 'GET', `/v1/admin/transfer/list${listQ()}`)],
    [3, () => call('payment-method list', 'GET', `/v1/admin/payment/list${listQ()}`)],
    [3, () => call('operation log', 'GET', `/v1/admin/user/opt/list${listQ()}`)],
    [2, () => call('menu', 'GET', '/v1/admin/user/menu')],
    [
      10,
      async () => {
        const id = pick(memberIds);
        if (id === undefined) return call('member list', 'GET', `/v1/admin/member/list${listQ()}`);
        const credit = Math.random() < 0.6;
        return call('member adjust', 'POST', '/v1/admin/member/opt', {
          id,
          action: 'adjust',
          asset: Math.random() < 0.7 ? 'USDT' : 'LZ',
          amount: `${credit ? '' : '-'}${1 + rnd(50)}.${String(rnd(100)).padStart(2, '0')}`,
          remark: credit ? '浸泡测试补发' : '浸泡测试扣回',
        });
      },
    ],
    [
      8,
      async () => {
        const type = 1 + rnd(2);
        const status = Math.random() < 0.6 ? 0 : 1;
        const r = await call('withdrawal list', 'GET', `/v1/admin/withdraw/list${listQ({ type, status })}`);
        const w = pick((r?.data?.list ?? []) as Array<{ id: number; chain: string; status: number }>);
        if (!w) return;
        if (w.status === 1) {
          if (Math.random() < 0.8)
            return call('withdrawal paid', 'POST', '/v1/admin/withdraw/opt', {
              id: w.id,
              action: 'paid',
              txHash: txHash(w.chain),
            });
          return call('withdrawal reject', 'POST', '/v1/admin/withdraw/opt', {
            id: w.id,
            action: 'reject',
            remark: '浸泡测试驳回',
          });
        }
        return Math.random() < 0.75
          ? call('withdrawal approve', 'POST', '/v1/admin/withdraw/opt', { id: w.id, action: 'approve' })
          : call('withdrawal reject', 'POST', '/v1/admin/withdraw/opt', {
              id: w.id,
              action: 'reject',
              remark: '浸泡测试驳回',
            });
      },
    ],
    [
      6,
      async () => {
        const r = await call('deposit list', 'GET', `/v1/admin/deposit/list${listQ({ status: 0 })}`);
        const d = pick((r?.data?.list ?? []) as Array<{ id: number }>);
        if (!d) return;
        return Math.random() < 0.8
          ? call('deposit confirm', 'POST', '/v1/admin/deposit/opt', { id: d.id, action: 'confirm' })
          : call('deposit reject', 'POST', '/v1/admin/deposit/opt', { id: d.id, action: 'reject', remark: '浸泡测试' });
      },
    ],
    [
      3,
      async () => {
        const r = await call('payment-method list', 'GET', `/v1/admin/payment/list${listQ({ status: 0 })}`);
        const p = pick((r?.data?.list ?? []) as Array<{ id: number }>);
        if (!p) return;
        return Math.random() < 0.7
          ? call('payment-method approve', 'POST', '/v1/admin/payment/opt', { id: p.id, action: 'approve' })
          : call('payment-method reject', 'POST', '/v1/admin/payment/opt', {
              id: p.id,
              action: 'reject',
              remark: '浸泡测试',
            });
      },
    ],
  ];
  const totalWeight = actions.reduce((a, [w]) => a + w, 0);
  const oneAction = () => {
    let x = Math.random() * totalWeight;
    for (const [w, run] of actions) {
      x -= w;
      if (x < 0) return run();
    }
    return actions[0][1]();
  };

  // The member side: new deposits, withdrawals, transfers and payment methods once a second.
  const feederDb = createDb(soakUrl.toString());
  const feeder = new Simulator(
    {
      db: feederDb.db,
      kind: feederDb.kind,
      config: loadConfig({ DATABASE_URL: soakUrl.toString() }),
      clock: systemClock,
      log: console as never,
    },
    { actions: 6, members: 40, seed: 7 },
  );
  const feed = { ticks: 0, errors: 0 };

  const durationMs = seconds * 1000;
  // Every 5 s over a long run; at least ~60 samples in a short one.
  const rssEvery = Math.max(1000, Math.min(5000, Math.floor(durationMs / 60)));
  let stopping = false;
  const health: Array<{ t: number; codes: (number | string)[] }> = [];
  const rss: Array<{ t: number; rss: (number | null)[] }> = [];
  const events: Record<string, number> = {};

  t0 = Date.now();
  log(
    `traffic for ${seconds} s: ${connections} loops, ${think} ms apart; restart at ${restart ? `${restartAt * seconds} s` : 'never'}`,
  );
  const loops = Array.from({ length: connections }, async () => {
    while (!stopping) {
      await oneAction();
      if (think) await sleep(think);
    }
  });
  const feederLoop = (async () => {
    while (!stopping) {
      try {
        await feeder.tick();
        feed.ticks += 1;
      } catch {
        feed.errors += 1;
      }
      await sleep(1000);
    }
  })();
  const healthLoop = (async () => {
    while (!stopping) {
      const t = now();
      const codes = await Promise.all(
        servers.map((s, i) =>
          http(i, 'GET', '/healthz').then(
            (r) => r.status,
            (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.name,
          ),
        ),
      );
      health.push({ t, codes });
      await sleep(250);
    }
  })();
  const rssLoop = (async () => {
    while (!stopping) {
      rss.push({ t: now(), rss: servers.map((s) => (s.exited ? null : (memOf(s.pid)?.rss ?? null))) });
      await sleep(rssEvery);
    }
  })();
  const progress = setInterval(() => {
    const fails = samples.filter((s) => s.result === 'fail').length;
    log(`${(now() / 1000).toFixed(0)} s: ${samples.length} requests, ${fails} failed, feeder ticks ${feed.ticks}`);
  }, 30_000);

  // The restart, in the middle.
  if (restart) {
    await sleep(Math.max(0, restartAt * durationMs - now()));
    events.restartBegin = now();
    log(`restarting PostgreSQL ${pgVersion}/main …`);
    // Asynchronously: the traffic and the /healthz probes go on while PostgreSQL stops and starts.
    const p = await new Promise<{ status: number; stderr: string }>((resolve) => {
      execFile('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion, 'main', 'restart'], (err, _out, stderr) =>
        resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    events.restartEnd = now();
    log(
      `pg_ctlcluster restart exited ${p.status} after ${events.restartEnd - events.restartBegin} ms ${p.stderr.trim()}`,
    );
    if (p.status !== 0) throw new Error(`pg_ctlcluster failed: ${p.stderr}`);
    // Recovered: /healthz 200 on both servers, probed after the restart command returned.
    while (events.recovered === undefined && now() < durationMs) {
      const h = health.find((x) => x.t >= events.restartEnd && x.codes.every((c) => c === 200));
      if (h) events.recovered = h.t;
      else await sleep(100);
    }
    log(`recovered (both /healthz 200) at ${((events.recovered ?? NaN) / 1000).toFixed(1)} s`);
  }
  await sleep(Math.max(0, durationMs - now()));
  stopping = true;
  clearInterval(progress);
  await Promise.all([...loops, feederLoop, healthLoop, rssLoop]);
  const trafficMs = now();
  log(`traffic stopped after ${(trafficMs / 1000).toFixed(0)} s`);

  // The end: the ledger and every counter, both servers still the processes started.
  const check = createDb(soakUrl.toString());
  const ledger = await ledgerViolations(check.db);
  const counters: Record<string, number> = {
    member: (await memberCountViolations(check.db)).length,
    bill_stat: (await billStatViolations(check.db)).length,
    withdrawal_stat: (await withdrawalStatViolations(check.db)).length,
    deposit_stat: (await depositStatViolations(check.db)).length,
    payment_stat: (await paymentStatViolations(check.db)).length,
    transfer_stat: (await transferStatViolations(check.db)).length,
  };
  const counts = (
    await sql<{ accounts: string; bills: string }>`
      select (select count(*) from account) as accounts, (select count(*) from bill) as bills`.execute(check.db)
  ).rows[0];
  await check.close();
  await feederDb.close();
  const alive = servers.map((s) => s.exited === null && s.proc.exitCode === null);
  for (const s of servers) {
    if (s.exited) continue;
    await new Promise<void>((res) => {
      s.proc.once('exit', () => res());
      s.proc.kill('SIGTERM');
    });
  }
  // Warnings and errors the servers logged (JSON lines; LOG_LEVEL=warn).
  const logSummary = servers.map((s) => {
    const lines = fs.readFileSync(s.logFile, 'utf8').split('\n');
    const out = { warn: 0, error: 0, fatal: 0, connectionLost: 0, healthFailed: 0, other: [] as string[] };
    for (const l of lines) {
      if (!l.startsWith('{')) continue;
      try {
        const j = JSON.parse(l) as { level: number; msg: string };
        if (j.level === 40) out.warn += 1;
        if (j.level === 50) out.error += 1;
        if (j.level >= 60) out.fatal += 1;
        if (j.msg?.includes('PostgreSQL connection lost')) out.connectionLost += 1;
        else if (j.msg === 'health check failed') out.healthFailed += 1;
        else if (out.other.length < 5 && !out.other.includes(j.msg)) out.other.push(j.msg);
      } catch {
        // not a log line
      }
    }
    return { server: s.name, ...out };
  });
  await cleanup();
  cleanup = undefined;
  fs.rmSync(uploadDir, { recursive: true, force: true });

  // Figures.
  const phase = (s: Sample) =>
    !restart || s.t < events.restartBegin ? 'before' : s.t < (events.recovered ?? Infinity) ? 'outage' : 'after';
  const byPhase: Record<
    string,
    { requests: number; failed: number; business: number; details: Record<string, number> }
  > = {};
  for (const s of samples) {
    const p = (byPhase[phase(s)] ??= { requests: 0, failed: 0, business: 0, details: {} });
    p.requests += 1;
    if (s.result === 'business') p.business += 1;
    if (s.result === 'fail') {
      p.failed += 1;
      p.details[s.detail ?? '?'] = (p.details[s.detail ?? '?'] ?? 0) + 1;
    }
  }
  const byWhat: Record<string, { n: number; ok: number; business: number; failed: number; p50: number; p99: number }> =
    {};
  const groups = new Map<string, Sample[]>();
  for (const s of samples) {
    const xs = groups.get(s.what);
    if (xs) xs.push(s);
    else groups.set(s.what, [s]);
  }
  for (const [what, xs] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
    byWhat[what] = {
      n: xs.length,
      ok: xs.filter((x) => x.result === 'ok').length,
      business: xs.filter((x) => x.result === 'business').length,
      failed: xs.filter((x) => x.result === 'fail').length,
      p50: ms[Math.floor(ms.length * 0.5)],
      p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))],
    };
  }
  const failures = samples.filter((s) => s.result === 'fail');
  const outage = {
    firstFailure: failures.length ? failures[0].t : null,
    lastFailure: failures.length ? failures[failures.length - 1].t : null,
  };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const memory = servers.map((s, i) => {
    const pts = rss.filter((r) => r.rss[i] !== null).map((r) => ({ t: r.t, v: r.rss[i]! }));
    const base = pts.filter((p) => p.t >= trafficMs * 0.1 && p.t < trafficMs * 0.2).map((p) => p.v);
    const end = pts.filter((p) => p.t >= trafficMs * 0.9).map((p) => p.v);
    const after = pts.filter((p) => p.t >= trafficMs * 0.1).map((p) => p.v);
    const mb = (b: number) => Math.round(b / 2 ** 20);
    return {
      server: s.name,
      samples: pts.length,
      startMB: pts.length ? mb(pts[0].v) : null,
      baseMB: base.length ? mb(mean(base)) : null,
      endMB: end.length ? mb(mean(end)) : null,
      minMB: after.length ? mb(Math.min(...after)) : null,
      maxMB: after.length ? mb(Math.max(...after)) : null,
      changePct: base.length && end.length ? Math.round(((mean(end) - mean(base)) / mean(base)) * 1000) / 10 : null,
      series: pts.map((p) => [Math.round(p.t / 1000), mb(p.v)]),
    };
  });
  const healthDown = health.filter((h) => h.codes.some((c) => c !== 200));
  const result = {
    startedAt: new Date(Date.now() - trafficMs).toISOString(),
    seconds: trafficMs / 1000,
    connections,
    think,
    pgVersion,
    server: serverKind,
    restart: restart
      ? {
          beginS: events.restartBegin / 1000,
          commandS: (events.restartEnd - events.restartBegin) / 1000,
          recoveredS: events.recovered !== undefined ? events.recovered / 1000 : null,
          outageS: events.recovered !== undefined ? (events.recovered - events.restartBegin) / 1000 : null,
        }
      : null,
    requests: samples.length,
    ratePerS: Math.round(samples.length / (trafficMs / 1000)),
    byPhase,
    outage: {
      firstFailureS: outage.firstFailure !== null ? outage.firstFailure / 1000 : null,
      lastFailureS: outage.lastFailure !== null ? outage.lastFailure / 1000 : null,
      healthNot200: healthDown.length,
      healthNot200FromS: healthDown.length ? healthDown[0].t / 1000 : null,
      healthNot200ToS: healthDown.length ? healthDown[healthDown.length - 1].t / 1000 : null,
      healthCodes: [...new Set(healthDown.flatMap((h) => h.codes))],
    },
    byWhat,
    memory,
    feeder: feed,
    serversAlive: alive,
    serverLogs: logSummary,
    ledgerViolations: ledger.length,
    counterViolations: counters,
    counts: { accounts: Number(counts.accounts), bills: Number(counts.bills) },
  };
  const file = path.join(OUT_DIR, `soak-${stamp}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));

  const md = [
    `Soak ${result.seconds.toFixed(0)} s, ${connections} loops (${think} ms think), two servers (${serverKind}), PostgreSQL ${pgVersion}:`,
    '',
    '| phase | requests | failed | business answers (4xx) | failures |',
    '|---|---|---|---|---|',
    ...['before', 'outage', 'after'].map((p) => {
      const x = byPhase[p] ?? { requests: 0, failed: 0, business: 0, details: {} };
      return `| ${p} | ${x.requests} | ${x.failed} | ${x.business} | ${Object.entries(x.details)
        .map(([k, v]) => `${k} ×${v}`)
        .join(', ')} |`;
    }),
    '',
    restart
      ? `Restart at ${result.restart!.beginS.toFixed(1)} s (command ${result.restart!.commandS.toFixed(1)} s), both /healthz 200 again at ${result.restart!.recoveredS?.toFixed(1)} s: outage ${result.restart!.outageS?.toFixed(1)} s; /healthz not 200 in ${healthDown.length} probes (${result.outage.healthCodes.join(', ')}).`
      : 'No restart.',
    '',
    '| server | RSS start | 2nd tenth (mean) | last tenth (mean) | change | min–max after warm-up |',
    '|---|---|---|---|---|---|',
    ...memory.map(
      (m) =>
        `| ${m.server} | ${m.startMB} MB | ${m.baseMB} MB | ${m.endMB} MB | ${m.changePct} % | ${m.minMB}–${m.maxMB} MB |`,
    ),
    '',
    '| call | requests | ok | 4xx | failed | p50 | p99 (ms) |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(byWhat).map(
      ([w, x]) => `| ${w} | ${x.n} | ${x.ok} | ${x.business} | ${x.failed} | ${x.p50} | ${x.p99} |`,
    ),
    '',
    `Ledger: ${ledger.length} violations over ${result.counts.accounts} accounts and ${result.counts.bills} bills; counters: ${JSON.stringify(counters)}. Servers alive at the end: ${alive.join(', ')}. Feeder ticks ${feed.ticks} (${feed.errors} failed). Server logs: ${JSON.stringify(logSummary)}`,
  ];
  process.stdout.write(`\n${md.join('\n')}\n\n${file}\n`);
  const ok =
    alive.every(Boolean) &&
    ledger.length === 0 &&
    Object.values(counters).every((n) => n === 0) &&
    (byPhase.after?.failed ?? 0) === 0 &&
    (byPhase.before?.failed ?? 0) === 0 &&
    memory.every((m) => m.changePct !== null && Math.abs(m.changePct) <= 10);
  log(ok ? 'PASS' : 'FAIL');
  process.exit(ok ? 0 : 1);
}

let cleanup: (() => Promise<void>) | undefined;

main().catch(async (err) => {
  console.error(err);
  await cleanup?.().catch((e: unknown) => console.error('cleanup:', e));
  process.exit(1);
});
