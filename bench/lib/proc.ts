/** Child processes for the bench: start a TS script under babel-node, wait for READY, sample memory. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const REGISTER = path.join(ROOT, 'bench/register.js');

export interface Child {
  proc: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/**
 * Node flags for every bench child (`BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` profiles
 * the servers a suite starts; Node refuses --cpu-prof in NODE_OPTIONS).
 */
const CHILD_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

export function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [...CHILD_FLAGS, '-r', REGISTER, path.join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts a bench server script and resolves once it printed `READY <port>`. */
export function startServer(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Child> {
  const proc = spawnTs(script, args, env);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) {
        proc.stdout!.off('data', onData);
        resolve({
          proc,
          port: Number(m[1]),
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
    proc.stderr!.on('data', (d) => (err += d.toString()));
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code} before READY: ${err || out}`)));
  });
}

/** VmHWM (peak resident set) and VmRSS of a live process, in bytes; null once it is gone. */
export function memOf(pid: number): { hwm: number; rss: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0) * 1024;
    return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return null;
  }
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Exact percentile (nearest rank) of a sample. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** CPU time (user + system, all threads) a process has used so far, in ms; 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
}
const CLK_TCK = 100;

/**
 * The processes whose CPU a server's requests cost: the server itself and, on PostgreSQL, the
 * backends of its pool (found by the application_name the bench gives each server, PGAPPNAME).
 */
export async function serverPids(pid: number, appName: string | null, pgUrl: string): Promise<number[]> {
  if (!appName) return [pid];
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [appName]);
    return [pid, ...r.rows.map((x) => Number(x.pid))];
  } finally {
    await c.end();
  }
}

/**
 * Watches the CPU of a server's PostgreSQL backends (by the application_name the bench gave it) over a
 * span: looked for every 250 ms on one connection of its own, so a backend opened and closed within the
 * span (an export's worker) counts too, from 0. A failed look is skipped. `stop()` answers CPU seconds.
 */
export async function watchBackends(appName: string, pgUrl: string): Promise<{ stop(): Promise<number> }> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  const seen = new Map<number, { from: number; last: number }>();
  let started = false;
  const look = async () => {
    const r = await c.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [appName]);
    for (const row of r.rows) {
      const pid = Number(row.pid);
      const ms = cpuMsOf(pid);
      const s = seen.get(pid);
      if (!s) seen.set(pid, { from: started ? 0 : ms, last: ms });
      else if (ms > s.last) s.last = ms;
    }
  };
  await look();
  started = true;
  let looking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    looking = looking.then(look).catch(() => undefined);
  }, 250);
  return {
    async stop() {
      clearInterval(timer);
      await looking;
      await look().catch(() => undefined);
      await c.end().catch(() => undefined);
      return [...seen.values()].reduce((a, b) => a + b.last - b.from, 0) / 1000;
    },
  };
}

export const cpuMsOfAll = (pids: number[]) => pids.reduce((a, p) => a + cpuMsOf(p), 0);

/** A port nobody listens on now, for a server a benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
