/**
 * The API's latency while an export runs: `node -r ./bench/register.js bench/export-latency.ts`
 * [--db sqlite|pg] [--format xlsx|csv] [--seconds 6] [--connections 10].
 *
 * Starts the compiled server (`npm run build:server` first; dist/server/main.js) on the bench database
 * twice — with export workers (the default) and with EXPORT_WORKERS=false — and in each measures the
 * order list's first page under autocannon alone, then again while a million-row order export downloads.
 * What the worker thread is for: the request thread no longer formats the rows, so the API's other
 * requests stop waiting behind each batch.
 */
import { spawn } from 'node:child_process';
import autocannon, { type Result } from 'autocannon';
import { freePort } from './lib/proc';
import { log, parseFlags, intFlag, strFlag } from './lib/args';

const flags = parseFlags();
const db = strFlag(flags, 'db', 'sqlite');
const format = strFlag(flags, 'format', 'xlsx');
const seconds = intFlag(flags, 'seconds', 6);
const connections = intFlag(flags, 'connections', 10);
const DB_URL =
  db === 'pg'
    ? `${process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'}?options=-c%20search_path%3Dbench`
    : 'sqlite:bench/out/bench.db';

async function server(workers: boolean) {
  const port = await freePort();
  const proc = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      SETTLE_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      EXPORT_WORKERS: String(workers),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (i > 200) throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${base}/v1/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: process.env.BENCH_ADMIN_PASSWORD ?? 'Bench12345' }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  return { base, token, stop: () => proc.kill() };
}

function load(base: string, token: string) {
  return new Promise<Result>((resolve, reject) =>
    autocannon(
      { url: `${base}/v1/admin/order/list?size=20`, connections, duration: seconds, headers: { authorization: token } },
      (err, r) => (err ? reject(err) : resolve(r)),
    ),
  );
}

async function main() {
  const rows: string[] = [];
  for (const workers of [true, false]) {
    const s = await server(workers);
    try {
      await load(s.base, s.token); // warm
      const alone = await load(s.base, s.token);
      const started = Date.now();
      const download = fetch(`${s.base}/v1/admin/order/export?format=${format}`, {
        headers: { authorization: s.token },
      }).then(async (r) => {
        let bytes = 0;
        const reader = r.body!.getReader();
        for (let c = await reader.read(); !c.done; c = await reader.read()) bytes += c.value.length;
        return { bytes, seconds: (Date.now() - started) / 1000 };
      });
      await new Promise((r) => setTimeout(r, 300)); // the export is under way
      const during = await load(s.base, s.token);
      const done = await download;
      for (const [when, r] of [
        ['alone', alone],
        [`during the ${format} export`, during],
      ] as const) {
        rows.push(
          `| ${db} | ${workers ? 'worker' : 'request thread'} | ${when} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p97_5} | ${r.latency.p99} | ${r.latency.max} |`,
        );
      }
      log(`${workers ? 'worker' : 'request thread'}: export ${done.bytes} bytes in ${done.seconds.toFixed(1)} s`);
    } finally {
      s.stop();
    }
  }
  console.log('| db | export made in | order/list page 1 | req/s | p50 | p97.5 | p99 | max (ms) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}
void main();
