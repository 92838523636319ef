/**
 * `npm run bench -- --suites api,export,batch,web --db sqlite|pg|both --duration 5 --repeat 3`
 *
 * Runs the chosen suites over the data set made by `npm run bench:data` and writes
 * bench/out/results-<time>.json plus a Markdown summary on stdout (pasted into docs/performance.md).
 * Suites: api (real vs floor), shapes (query shapes on the floor), export, batch, buyers, web, settle (the daily
 * settlement of the next unsettled day; not in the default list: each run settles a new day).
 * API flags: --connections 10 --only member,bill (scenario name prefixes).
 * Export: --formats xlsx,csv. Batch: --batch 1000 --action approve. Buyers: --buyers 500 --stock 100. Web: --pages memberList,bill.
 * Settle: --settle-batch N (records per transaction, default the server's SETTLE_BATCH).
 */
import fs from 'node:fs';
import os from 'node:os';
import { ADMIN_PASSWORD, intFlag, listFlag, log, OUT_DIR, parseFlags, strFlag } from './lib/args';
import { readSample } from './api/samples';
import { runApi, type ScenarioResult } from './api/suite';
import { runShapes, type ShapeResult } from './api/shapes';
import { runWeb } from './web';
import { runExports, type ExportResult } from './exports';
import { runBatch, type BatchResult } from './batch';
import { runBuyers, type BuyersResult } from './buyers';
import { runSettle, type SettleBenchResult } from './settle';

export function machine() {
  const cpus = os.cpus();
  return {
    nproc: cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

const ms = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(x < 10 ? 1 : 0));
const cpu = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(2));
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');

export function apiTable(rows: ScenarioResult[]): string {
  const out = [
    '| db | scenario | total | real req/s | p50 | p95 | p99 (ms) | floor req/s | floor p99 | real/floor | CPU ms/req real | floor |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    if (r.skipped) {
      out.push(`| ${r.db} | ${r.what} | – | skipped: ${r.skipped} | | | | | | | | |`);
      continue;
    }
    out.push(
      `| ${r.db} | ${r.what}${r.note ? ` (${r.note})` : ''} | ${JSON.stringify(r.total ?? '–')} | ${n0(r.real.rps)} | ${ms(r.real.p50)} | ${ms(r.real.p95)} | ${ms(r.real.p99)} | ${r.floor ? n0(r.floor.rps) : '–'} | ${ms(r.floor?.p99)} | ${r.ratio?.toFixed(2) ?? '–'} | ${cpu(r.real.cpuMs)} | ${cpu(r.floor?.cpuMs)} |`,
    );
  }
  return out.join('\n');
}

export function shapeTable(rows: ShapeResult[]): string {
  const out = ['| db | group | shape | req/s | p50 | p99 (ms) | alone (ms) |', '|---|---|---|---|---|---|---|'];
  for (const r of rows)
    out.push(`| ${r.db} | ${r.group} | ${r.what} | ${n0(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.single)} |`);
  return out.join('\n');
}

async function main() {
  const flags = parseFlags();
  const suites = listFlag(flags, 'suites', ['api', 'export', 'batch', 'web']);
  const which = strFlag(flags, 'db', 'sqlite');
  const dbs = (which === 'both' ? ['sqlite', 'pg'] : [which]) as ('sqlite' | 'pg')[];
  const duration = intFlag(flags, 'duration', 5);
  const repeat = intFlag(flags, 'repeat', 3);
  const connections = intFlag(flags, 'connections', 10);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const results: Record<string, unknown> = { machine: machine(), startedAt: new Date().toISOString(), flags };
  const md: string[] = [];
  if (suites.includes('api')) {
    const all: ScenarioResult[] = [];
    for (const db of dbs) {
      const sample = await readSample(db);
      log(`api ${db}: ${JSON.stringify(sample)}`);
      all.push(
        ...(await runApi({
          db,
          connections,
          duration,
          repeat,
          only: listFlag(flags, 'only', []),
          password: ADMIN_PASSWORD,
          sample,
        })),
      );
    }
    results.api = all;
    md.push(`### API (${connections} connections, ${duration} s × ${repeat}, medians)\n\n${apiTable(all)}`);
  }
  if (suites.includes('shapes')) {
    const all: ShapeResult[] = [];
    for (const db of dbs) {
      const sample = await readSample(db);
      all.push(...(await runShapes({ db, sample, connections, duration, repeat, only: listFlag(flags, 'only', []) })));
    }
    results.shapes = all;
    md.push(`### Query shapes on the floor (bare Fastify + driver)\n\n${shapeTable(all)}`);
  }
  if (suites.includes('export')) {
    const all: ExportResult[] = [];
    for (const db of dbs)
      all.push(
        ...(await runExports({
          db,
          password: ADMIN_PASSWORD,
          formats: listFlag(flags, 'formats', []),
          exports: listFlag(flags, 'exports', []),
        })),
      );
    results.exports = all;
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
    md.push(
      [
        '### Exports (full table, fresh server per run)',
        '',
        '| db | export | format | rows | seconds | rows/s | server CPU s | rows per CPU s | body | RSS before → peak | VmHWM |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
        ...all.map((e) =>
          e.skipped
            ? `| ${e.db} | ${e.name} | ${e.format} | skipped: ${e.skipped} | | | | | | | |`
            : `| ${e.db} | ${e.name} | ${e.format} | ${n0(e.rows)} | ${e.seconds.toFixed(1)} | ${n0(e.rowsPerSecond)} | ${e.cpuSeconds?.toFixed(1) ?? '–'} | ${e.rowsPerCpuSecond ? n0(e.rowsPerCpuSecond) : '–'} | ${mb(e.bytes)} | ${mb(e.baselineRss)} → ${mb(e.peakRss)} | ${mb(e.hwm)} |`,
        ),
      ].join('\n'),
    );
  }
  if (suites.includes('batch')) {
    const all: BatchResult[] = [];
    for (const db of dbs)
      all.push(
        await runBatch({
          db,
          password: ADMIN_PASSWORD,
          count: intFlag(flags, 'batch', 1000),
          warm: intFlag(flags, 'batch-warm', 0),
          reset: flags['batch-reset'] === true || flags['batch-reset'] === 'true',
          action: strFlag(flags, 'action', 'approve'),
        }),
      );
    results.batch = all;
    md.push(
      [
        '### Batch approve (withdraw/opt/batch)',
        '',
        '| db | ids (warmed by) | seconds | server CPU s (of which PostgreSQL) | succeeded | failed | status 1 in db | bills added | op-log rows | same call again: succeeded, s |',
        '|---|---|---|---|---|---|---|---|---|---|',
        ...all.map((b) =>
          b.skipped
            ? `| ${b.db} | skipped: ${b.skipped} | | | | | | | | |`
            : `| ${b.db} | ${n0(b.count)}${b.warmed ? ` (${n0(b.warmed)})` : ''} | ${b.seconds.toFixed(2)} | ${b.cpuSeconds?.toFixed(2) ?? '–'}${b.dbCpuSeconds === undefined ? '' : ` (${b.dbCpuSeconds.toFixed(2)})`} | ${b.succeeded} | ${b.failed} | ${b.approvedInDb} | ${b.billsAdded} | ${b.opLogRows} | ${b.repeatSucceeded}, ${b.repeatSeconds.toFixed(2)} |`,
        ),
      ].join('\n'),
    );
  }
  if (suites.includes('buyers')) {
    const all: BuyersResult[] = [];
    for (const db of dbs)
      all.push(await runBuyers({ db, buyers: intFlag(flags, 'buyers', 500), stock: intFlag(flags, 'stock', 100) }));
    results.buyers = all;
    md.push(
      [
        '### Concurrent buyers on one SKU (buyProduct)',
        '',
        '| db | buyers | stock | seconds | orders | refusals | stock left | bills 11 | ledger / counter violations |',
        '|---|---|---|---|---|---|---|---|---|',
        ...all.map((b) =>
          b.skipped
            ? `| ${b.db} | skipped: ${b.skipped} | | | | | | | |`
            : `| ${b.db} | ${b.buyers} | ${b.stock} | ${b.seconds.toFixed(2)} | ${b.orders} | ${Object.entries(
                b.refusals,
              )
                .map(([m, n]) => `${n} ${m}`)
                .join(', ')} | ${b.stockLeft} | ${b.bills} | ${b.ledgerViolations} / ${b.counterViolations} |`,
        ),
      ].join('\n'),
    );
  }
  if (suites.includes('settle')) {
    const all: SettleBenchResult[] = [];
    const batch = flags['settle-batch'] === undefined ? undefined : intFlag(flags, 'settle-batch', 0);
    for (const db of dbs) all.push(await runSettle({ db, batch }));
    results.settle = all;
    md.push(
      [
        '### Daily settlement (settleDay of the next unsettled day)',
        '',
        '| db | day | outcome | seconds | pledges | seeds | records/s | release rows | rows/s | bills | batches | matches cancelled | CPU s | same day again | ledger check | counters |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...all.map((r) =>
          r.skipped
            ? `| ${r.db} | skipped: ${r.skipped} | | | | | | | | | | | | | | |`
            : `| ${r.db} | ${r.day} | ${r.outcome}${r.error ? `: ${r.error}` : ''} | ${r.seconds.toFixed(1)} | ${n0(r.pledges)} | ${n0(r.seeds)} | ${n0(r.recordsPerSecond)} | ${n0(r.releaseRows)} | ${n0(r.releaseRowsPerSecond)} | ${n0(r.bills)} | ${r.batches} | ${r.matchesCancelled} | ${r.cpuSeconds.toFixed(1)} | ${r.againOutcome}, ${r.againSeconds.toFixed(2)} s | ${r.ledgerViolations} violations, ${r.ledgerSeconds.toFixed(1)} s | ${r.counterViolations} violations |`,
        ),
      ].join('\n'),
    );
  }
  if (suites.includes('web')) {
    const w = await runWeb({ db: dbs[0], password: ADMIN_PASSWORD, pages: listFlag(flags, 'pages', []) });
    results.web = w;
    const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
    md.push(
      [
        '### Web (Chromium, cold cache, compressed bytes on the wire)',
        '',
        `- /login: ${kib(w.login.jsBytesUsable)} of JS when the form is usable (${w.login.usableMs.toFixed(0)} ms), ${kib(w.login.jsBytesIdle)} after network idle`,
        '',
        '| page | JS on the wire (after network idle) | at the first row | files | first row cold (ms) | first row warm (ms) |',
        '|---|---|---|---|---|---|',
        ...w.pages.map(
          (p) =>
            `| ${p.title} ${p.path} | ${kib(p.jsBytes)} | ${p.jsBytesAtFirstRow === undefined ? '–' : kib(p.jsBytesAtFirstRow)} | ${p.jsFiles} | ${p.firstRowMs?.toFixed(0) ?? '–'} | ${p.firstRowWarmMs?.toFixed(0) ?? '–'} |`,
        ),
        '',
        `heaviest list page: ${w.heaviest ? `${w.heaviest.title} ${w.heaviest.path}, ${kib(w.heaviest.jsBytes)}` : '–'}`,
      ].join('\n'),
    );
  }
  const file = `${OUT_DIR}/results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  process.stdout.write(`\n${md.join('\n\n')}\n\nresults: ${file}\n`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
