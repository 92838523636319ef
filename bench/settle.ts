/**
 * Settle suite (issue 11 budget: one day over 1,000,000 active pledges and 1,000,000 growing seeds in
 * ≤ 120 s, every bill written, the ledger invariant checked after): runs the real settlement job
 * (settlement.service `settleDay`, in this process, as `npm run settle` runs it) over the bench data set
 * for the next day it has not settled — normally the day before the data set's newest (bench:data
 * leaves it open), then the day after that on the next run, and so on. A settlement cannot be undone,
 * so every run settles a new day; the data set's records age a day each time (rebuild it with
 * `npm run bench:data` to start over).
 *
 * The day must be over for settleDay: the job runs on a clock set just past the day's 00:05 settle
 * time when that is later than now (its bills are dated then). Reported: seconds, records and release
 * rows per second, bills written, the process's and its PostgreSQL backends' CPU, the same day run
 * again (nothing to do), then ledgerViolations() over every account and the counters' checks.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { loadConfig } from '../server/config';
import { dateOfDay, dayStart } from '../server/db/dayBuckets';
import { createDb } from '../server/db/dialect';
import { billStatViolations, ledgerViolations } from '../server/modules/ledger/ledger.service';
import { matchStatViolations } from '../server/modules/matches/matches.repository';
import { pledgeCounterViolations } from '../server/modules/pledge/pledge.query';
import { seedCounterViolations } from '../server/modules/seeds/seeds.query';
import { settleDay } from '../server/modules/settlement/settlement.service';
import { fmt, log, PG_SCHEMA, PG_URL, SQLITE_FILE } from './lib/args';
import { cpuMsOf, serverPids } from './lib/proc';

export interface SettleBenchResult {
  db: string;
  day: string;
  outcome: string;
  seconds: number;
  pledges: number;
  seeds: number;
  /** Records paid per second (pledges + seeds). */
  recordsPerSecond: number;
  releaseRows: number;
  releaseRowsPerSecond: number;
  bills: number;
  batches: number;
  matchesCancelled: number;
  /** CPU seconds of this process and (PostgreSQL) its pool's backends during the run. */
  cpuSeconds: number;
  /** The same day once more: its outcome ('already') and seconds. */
  againOutcome: string;
  againSeconds: number;
  ledgerViolations: number;
  ledgerSeconds: number;
  counterViolations: number;
  skipped?: string;
  error?: string;
}

const APP_NAME = 'bench_settle';

export async function runSettle(o: { db: 'sqlite' | 'pg'; batch?: number }): Promise<SettleBenchResult> {
  const url = o.db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL;
  const logger = pino({ level: 'warn' }, pino.destination(2)) as unknown as FastifyBaseLogger;
  const h = createDb(url, { pgSchema: o.db === 'pg' ? PG_SCHEMA : undefined, applicationName: APP_NAME, log: logger });
  const empty: SettleBenchResult = {
    db: o.db,
    day: '',
    outcome: '',
    seconds: 0,
    pledges: 0,
    seeds: 0,
    recordsPerSecond: 0,
    releaseRows: 0,
    releaseRowsPerSecond: 0,
    bills: 0,
    batches: 0,
    matchesCancelled: 0,
    cpuSeconds: 0,
    againOutcome: '',
    againSeconds: 0,
    ledgerViolations: 0,
    ledgerSeconds: 0,
    counterViolations: 0,
  };
  try {
    const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(h.db)).rows[0] as T;
    let day: number;
    try {
      // A day left failed or unfinished first (the job retries it), else the day after the newest run.
      const open = await one(sql<{ d: number | null }>`select min(day) as d from settlement_run where status <> 2`);
      const max = await one(sql<{ d: number | null }>`select max(day) as d from settlement_run`);
      const owed = await one(sql<{ d: number | null }>`select min(paid_day) as d from pledge where status = 1`);
      if (open.d !== null) day = Number(open.d);
      else if (max.d !== null) day = Number(max.d) + 1;
      else if (owed.d !== null) day = Number(owed.d) + 1;
      else return { ...empty, skipped: 'no pledges (run npm run bench:data)' };
    } catch {
      return { ...empty, skipped: 'no settlement tables (run npm run bench:data or bench/migrate.ts)' };
    }
    // The job settles a day that is over: run it on a clock just past the day's settle time if needed.
    const offset = Math.max(0, dayStart(day + 1) + 6 * 60_000 - Date.now());
    const clock = { now: () => Date.now() + offset };
    const config = { ...loadConfig({ ...process.env, DATABASE_URL: url }), demoData: false };
    const ctx = { db: h.db, kind: h.kind, config, clock, log: logger };

    const maxId = async (table: string) =>
      Number((await one(sql<{ n: number | null }>`select max(id) as n from ${sql.table(table)}`)).n ?? 0);
    const before = { bill: await maxId('bill'), pr: await maxId('pledge_release'), sr: await maxId('seed_release') };
    const counted = async (table: string, after: number) =>
      Number((await one(sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where id > ${after}`)).n);
    const pids = o.db === 'pg' ? (await serverPids(process.pid, APP_NAME, PG_URL)).slice(1) : [];
    const cpu0 = process.cpuUsage();
    const backend0 = new Map(pids.map((p) => [p, cpuMsOf(p)]));
    let batches = 0;
    log(
      `settle ${o.db}: settling ${dateOfDay(day)}${offset ? ` (clock moved on ${(offset / 3_600_000).toFixed(1)} h)` : ''}`,
    );
    const t0 = performance.now();
    const r = await settleDay(ctx, day, {
      owner: `bench:${process.pid}`,
      batchSize: o.batch,
      onBatch: (b) => {
        batches += 1;
        if (batches % 50 === 0) log(`settle ${o.db}: ${batches} batches (${b.kind})`);
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    const own = process.cpuUsage(cpu0);
    const after = o.db === 'pg' ? (await serverPids(process.pid, APP_NAME, PG_URL)).slice(1) : [];
    let backendMs = 0;
    for (const p of after) backendMs += cpuMsOf(p) - (backend0.get(p) ?? 0);
    const cpuSeconds = (own.user + own.system) / 1e6 + backendMs / 1000;
    const releaseRows = (await counted('pledge_release', before.pr)) + (await counted('seed_release', before.sr));
    const bills = await counted('bill', before.bill);
    const t1 = performance.now();
    const again = await settleDay(ctx, day, { owner: `bench:${process.pid}` });
    const againSeconds = (performance.now() - t1) / 1000;
    log(
      `settle ${o.db}: ${dateOfDay(day)} ${r.outcome} in ${seconds.toFixed(1)} s: ${fmt(r.pledges)} pledges, ${fmt(r.seeds)} seeds, ${fmt(releaseRows)} release rows, ${fmt(bills)} bills, ${batches} batches, ${r.matchesCancelled} matches cancelled, CPU ${cpuSeconds.toFixed(1)} s; again: ${again.outcome} in ${againSeconds.toFixed(2)} s`,
    );
    const tl = performance.now();
    const bad = await ledgerViolations(h.db);
    const ledgerSeconds = (performance.now() - tl) / 1000;
    const p = await pledgeCounterViolations(h.db);
    const s = await seedCounterViolations(h.db);
    const counters = [
      ...p.pledges,
      ...p.members,
      ...p.releases,
      ...s.seeds,
      ...s.members,
      ...s.releases,
      ...(await matchStatViolations(h.db)),
      ...(await billStatViolations(h.db)),
    ];
    log(
      `settle ${o.db}: ledgerViolations() ${bad.length} in ${ledgerSeconds.toFixed(1)} s; counter violations ${counters.length}`,
    );
    if (bad.length) log(`settle ${o.db}: first violations ${JSON.stringify(bad.slice(0, 3))}`);
    if (counters.length) log(`settle ${o.db}: first counter violations ${JSON.stringify(counters.slice(0, 3))}`);
    const records = r.pledges + r.seeds;
    return {
      db: o.db,
      day: dateOfDay(day),
      outcome: r.outcome,
      seconds,
      pledges: r.pledges,
      seeds: r.seeds,
      recordsPerSecond: records / seconds,
      releaseRows,
      releaseRowsPerSecond: releaseRows / seconds,
      bills,
      batches,
      matchesCancelled: r.matchesCancelled,
      cpuSeconds,
      againOutcome: again.outcome,
      againSeconds,
      ledgerViolations: bad.length,
      ledgerSeconds,
      counterViolations: counters.length,
      ...(r.error ? { error: r.error } : {}),
    };
  } finally {
    await h.close();
  }
}
