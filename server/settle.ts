/**
 * `npm run settle`: the daily settlement job by hand, against the configured DATABASE_URL.
 *
 *   npm run settle -- --day 2026-11-24     settle that Asia/Shanghai day (a day that is over)
 *   npm run settle                         settle every day due: each one not yet settled, up to yesterday
 *
 * Options: --batch N (records per transaction, default SETTLE_BATCH), --pause-ms N (a pause after each
 * batch). A day already settled is left as it is; a day another process is settling is left to it.
 * Prints one JSON line per committed batch ({"batch":…}) and per day ({"day":…}); exits 1 when a day
 * failed (the failure is recorded in the day's run and retried by the next run), 2 on bad arguments.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { createDb } from './db/dialect';
import { migrateToLatest } from './db/migrate';
import { AppError } from './errors';
import {
  parseDay,
  settleDay,
  settleDue,
  type SettleOptions,
  type SettleResult,
} from './modules/settlement/settlement.service';

function argOf(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
  return v;
}

function wholeArg(argv: string[], name: string, min: number, max: number): number | undefined {
  const raw = argOf(argv, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  const dayArg = argOf(argv, 'day');
  const day = dayArg === undefined ? undefined : parseDay(dayArg);
  if (day === null) throw new ConfigError(`--day must be a date YYYY-MM-DD, got "${dayArg}"`);
  const opts: SettleOptions = {
    batchSize: wholeArg(argv, 'batch', 1, 5000),
    pauseMs: wholeArg(argv, 'pause-ms', 0, 60_000),
    onBatch: (b) => process.stdout.write(`${JSON.stringify({ batch: b.kind, records: b.records })}\n`),
  };
  const log = pino({ level: config.logLevel }, pino.destination(2)) as unknown as FastifyBaseLogger;
  const { db, kind, close } = createDb(config.databaseUrl, { log });
  try {
    await migrateToLatest(db);
    const ctx = { db, kind, config, clock: systemClock, log };
    const results: SettleResult[] =
      day === undefined
        ? await settleDue(ctx, systemClock.now(), { ...opts, settleAt: 0 })
        : [await settleDay(ctx, day, opts)];
    for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
    if (results.length === 0) process.stdout.write(`${JSON.stringify({ due: 0 })}\n`);
    return results.some((r) => r.outcome === 'failed') ? 1 : 0;
  } finally {
    await close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof ConfigError || err instanceof AppError) {
        console.error(err instanceof ConfigError ? `配置错误 (configuration error): ${err.message}` : err.message);
        process.exit(2);
      }
      console.error(err);
      process.exit(1);
    },
  );
}
