/**
 * `npm run bench:smoke [-- --db sqlite|pg|both]` — the benchmarks run once over a tiny data set, in
 * about a minute, so that CI notices when one of them stops working (a scenario that answers an error,
 * an export with missing rows, a settlement that fails, a page without rows). It never fails on a time:
 * the figures it prints mean nothing at this size.
 *
 * Its data lives apart from the real bench set: bench/out/smoke.db and the PostgreSQL schema
 * bench_smoke, both made afresh each run. The web suite (/login and two list pages) runs only when the
 * console is built (dist/web).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const OUT = path.join(__dirname, 'out');
// Set before the bench modules read them (lib/args.ts reads them as it loads).
process.env.BENCH_SQLITE = path.join(OUT, 'smoke.db');
process.env.BENCH_PG_SCHEMA = 'bench_smoke';

/** The tiny data set: every table the suites read, a few thousand rows. */
const SCALE = {
  members: 2000,
  bills: 20_000,
  deposits: 2000,
  withdrawals: 2000,
  payments: 2000,
  zones: 4,
  seed: 42,
  pledges: 2000,
  seeds: 2000,
  matches: 1000,
  releases: 10_000,
  products: 40,
  orders: 2000,
};

async function main() {
  const args = await import('./lib/args');
  const { buildDataSet } = await import('./data');
  const { runApi } = await import('./api/suite');
  const { readSample } = await import('./api/samples');
  const { runExports } = await import('./exports');
  const { runBatch } = await import('./batch');
  const { runBuyers } = await import('./buyers');
  const { runSettle } = await import('./settle');
  const { runWeb } = await import('./web');
  const { SMOKE_PAGES, smokeProblems } = await import('./lib/smoke-check');

  const flags = args.parseFlags();
  const which = args.strFlag(flags, 'db', 'both');
  const dbs = (which === 'both' ? ['sqlite', 'pg'] : [which]) as ('sqlite' | 'pg')[];
  fs.mkdirSync(OUT, { recursive: true });
  const t0 = Date.now();
  const results: Parameters<typeof smokeProblems>[0] = {
    data: [],
    api: [],
    exports: [],
    batch: [],
    buyers: [],
    settle: [],
  };
  for (const db of dbs) {
    results.data.push(await buildDataSet(db, { ...SCALE, end: Math.floor(Date.now() / 3_600_000) * 3_600_000 }, true));
    const sample = await readSample(db);
    results.api.push(
      ...(await runApi({
        db,
        connections: 2,
        duration: 0.2,
        amount: 20, // 20 requests per run on each server, however long they take: never a time
        repeat: 1,
        warm: false,
        password: args.ADMIN_PASSWORD,
        sample,
      })),
    );
    results.exports.push(
      ...(await runExports({
        db,
        password: args.ADMIN_PASSWORD,
        server: 'build', // compiled from the source now (bench/out/server-build): never a stale dist/
        nodeFlags: [],
        runs: 1,
      })),
    );
    results.batch.push(await runBatch({ db, password: args.ADMIN_PASSWORD, count: 50, action: 'approve' }));
    results.buyers.push(await runBuyers({ db, buyers: 30, stock: 10 }));
    results.settle.push(await runSettle({ db }));
  }
  if (fs.existsSync(path.join(ROOT, 'dist/web/index.html'))) {
    results.web = await runWeb({ db: dbs[0], password: args.ADMIN_PASSWORD, pages: [...SMOKE_PAGES] });
  } else {
    args.log('web: skipped (no dist/web; npm run build first)');
  }
  const problems = smokeProblems(results);
  const file = path.join(OUT, 'smoke-results.json');
  fs.writeFileSync(file, JSON.stringify(results, null, 1));
  const seconds = ((Date.now() - t0) / 1000).toFixed(0);
  if (problems.length) {
    console.error(`bench smoke: ${problems.length} problem(s) in ${seconds} s (results in ${file}):`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  args.log(`bench smoke: every benchmark ran (${seconds} s; results in ${file})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
