/**
 * The settlement job across processes (issue 11, "Exactly once"): `npm run settle` started as its own
 * Node process (as `npm run bench` starts TypeScript: plain Node with @babel/register), on a database
 * file (SQLite) or a fresh PostgreSQL schema shared with this test.
 *
 *   - killed with SIGKILL right after its first batch committed, then started again once its lease
 *     ran out: the day finishes with every credit made once (SQLite and PostgreSQL);
 *   - two processes settling the same day at once on PostgreSQL: exactly one of them does it, every
 *     credit once (needs TEST_DATABASE_URL; skipped without it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { BillType } from '../../../../domain/bills';
import { systemClock } from '../../../../server/clock';
import { loadConfig } from '../../../../server/config';
import type { Ctx } from '../../../../server/context';
import { createDb, dropPgSchema, type Db } from '../../../../server/db/dialect';
import { dateOfDay, dayOf } from '../../../../server/db/dayBuckets';
import { migrateToLatest } from '../../../../server/db/migrate';
import { PG_URL } from '../../helpers';
import { addMode, addPledge, addSeed, expectConsistent, richMember } from './fixtures';

const ROOT = path.resolve(__dirname, '../../../..');
const DAY = 86_400_000;
const PLEDGES = 40;
const SEEDS = 40;
const BATCH = 5;

function withoutTestEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _n, BABEL_ENV: _b, TEST_DATABASE_URL: _t, ...rest } = env;
  return rest;
}

interface Settler {
  child: ChildProcess;
  /** Resolves at the first committed batch the process reports. */
  firstBatch: Promise<void>;
  /** Exit code and the day results it printed. */
  done: Promise<{ code: number | null; results: Array<Record<string, any>>; out: string }>;
}

/** Starts `server/settle.ts --day <day>` in its own process. */
function startSettler(databaseUrl: string, day: number, env: Record<string, string> = {}, pauseMs = 0): Settler {
  const child = spawn(
    process.execPath,
    [
      '-r',
      './bench/register.js',
      'server/settle.ts',
      '--day',
      dateOfDay(day),
      '--batch',
      String(BATCH),
      '--pause-ms',
      String(pauseMs),
    ],
    {
      cwd: ROOT,
      env: { ...withoutTestEnv(process.env), DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const firstBatch = new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (out.includes('{"batch"')) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`settler exited with ${code} before a batch:\n${out}`)));
  });
  firstBatch.catch(() => undefined);
  const done = new Promise<{ code: number | null; results: Array<Record<string, any>>; out: string }>((resolve) => {
    child.once('exit', (code) => {
      const results = out
        .split('\n')
        .filter((l) => l.startsWith('{"day"'))
        .map((l) => JSON.parse(l));
      resolve({ code, results, out });
    });
  });
  return { child, firstBatch, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A database for one scenario: a SQLite file or a PostgreSQL schema, with its URL for the children. */
interface Target {
  url: string;
  handle: Db;
  ctx: Ctx;
  drop(): Promise<void>;
}

async function sqliteTarget(dir: string, name: string): Promise<Target> {
  const file = path.join(dir, `${name}.db`);
  const url = `sqlite:${file}`;
  const handle = createDb(url);
  await migrateToLatest(handle.db);
  const ctx = {
    db: handle.db,
    kind: handle.kind,
    config: loadConfig({}, dir),
    clock: systemClock,
    log: console as unknown as Ctx['log'],
  };
  return { url, handle, ctx, drop: () => handle.close() };
}

async function pgTarget(dir: string, name: string): Promise<Target> {
  const schema = `t_settle_${name}_${process.pid}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await c.end();
  }
  const u = new URL(PG_URL!);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const handle = createDb(PG_URL!, { pgSchema: schema, poolSize: 4 });
  await migrateToLatest(handle.db);
  const ctx = {
    db: handle.db,
    kind: handle.kind,
    config: loadConfig({}, dir),
    clock: systemClock,
    log: console as unknown as Ctx['log'],
  };
  return {
    url: u.toString(),
    handle,
    ctx,
    drop: async () => {
      await handle.close();
      await dropPgSchema(PG_URL!, schema);
    },
  };
}

/** PLEDGES pledges and SEEDS seeds made two days ago (Asia/Shanghai): each owed one release yesterday. */
async function records(ctx: Ctx) {
  const made = Date.now() - 2 * DAY;
  const mode = await addMode(ctx, 5, '0.012345');
  const members = [];
  for (let i = 0; i < 8; i++) members.push(await richMember(ctx, '100000'));
  for (let i = 0; i < PLEDGES; i++) await addPledge(ctx, members[i % members.length], mode, `${100 + i}.0007`, made);
  for (let i = 0; i < SEEDS; i++) await addSeed(ctx, members[i % members.length], `${10 + i}.01`, 5, made);
  return { day: dayOf(made) + 1, members };
}

/** Each record has exactly one release of `day`, each release one bill, and every check holds. */
async function expectEachCreditOnce(ctx: Ctx, day: number) {
  const db = ctx.db;
  const count = async (q: Promise<Array<{ n: unknown }>>) => Number((await q)[0].n);
  expect(
    await count(
      db
        .selectFrom('pledge_release')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('day', '=', day)
        .execute(),
    ),
  ).toBe(PLEDGES);
  expect(
    await count(
      db
        .selectFrom('seed_release')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('day', '=', day)
        .execute(),
    ),
  ).toBe(SEEDS);
  const perRecord = await db
    .selectFrom('pledge_release')
    .select(['pledge_id'])
    .select((eb) => eb.fn.countAll().as('n'))
    .groupBy('pledge_id')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  expect(perRecord).toEqual([]);
  expect(
    await count(
      db
        .selectFrom('bill')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('type', '=', BillType.pledgeIncome)
        .execute(),
    ),
  ).toBe(PLEDGES);
  expect(
    await count(
      db
        .selectFrom('bill')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('type', '=', BillType.seedRelease)
        .execute(),
    ),
  ).toBe(SEEDS);
  expect(
    await count(
      db
        .selectFrom('pledge')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('paid_day', '=', day)
        .execute(),
    ),
  ).toBe(PLEDGES);
  expect(
    await count(
      db
        .selectFrom('seed')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('paid_day', '=', day)
        .execute(),
    ),
  ).toBe(SEEDS);
  const run = await db.selectFrom('settlement_run').selectAll().where('day', '=', day).executeTakeFirstOrThrow();
  expect({ status: run.status, pledges: Number(run.pledges), seeds: Number(run.seeds) }).toEqual({
    status: 2,
    pledges: PLEDGES,
    seeds: SEEDS,
  });
  await expectConsistent(db);
}

const targets: Array<[string, (dir: string, name: string) => Promise<Target>]> = [['SQLite', sqliteTarget]];
if (PG_URL) targets.push(['PostgreSQL', pgTarget]);
else console.log('settlement.processes: the PostgreSQL cases need TEST_DATABASE_URL and are skipped');

describe('settlement in processes of its own', () => {
  let dir = '';
  const children: ChildProcess[] = [];
  const opened: Target[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-settle-'));
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    for (const t of opened) await t.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  describe.each(targets)('%s', (_kind, make) => {
    it('killed with SIGKILL after its first batch, started again: the day is finished, each credit once', async () => {
      const target = await make(dir, 'kill');
      opened.push(target);
      const { day } = await records(target.ctx);
      const first = startSettler(target.url, day, { SETTLE_LEASE_SEC: '10' }, 300);
      children.push(first.child);
      await first.firstBatch;
      first.child.kill('SIGKILL');
      await first.done;
      const run = await target.ctx.db
        .selectFrom('settlement_run')
        .selectAll()
        .where('day', '=', day)
        .executeTakeFirstOrThrow();
      expect(run.status).toBe(1); // killed: still 进行中, its lease running out
      const paid = Number(run.pledges) + Number(run.seeds);
      expect(paid).toBeGreaterThanOrEqual(BATCH);
      expect(paid).toBeLessThan(PLEDGES + SEEDS);

      // Started again at once: the dead process's lease still holds the day.
      const early = startSettler(target.url, day);
      children.push(early.child);
      expect((await early.done).results.map((r) => r.outcome)).toEqual(['busy']);

      // Once the lease ran out, the next process takes the day over and finishes it.
      await sleep(Math.max(0, Number(run.lease_until) - Date.now()) + 200);
      const second = startSettler(target.url, day);
      children.push(second.child);
      const r = await second.done;
      expect(r.code).toBe(0);
      expect(r.results).toHaveLength(1);
      expect(r.results[0].outcome).toBe('done');
      expect(r.results[0].pledges + r.results[0].seeds).toBe(PLEDGES + SEEDS - paid);
      await expectEachCreditOnce(target.ctx, day);
    }, 120_000);
  });

  (PG_URL ? it : it.skip)(
    'PostgreSQL: two processes settle one day at once: exactly one does it',
    async () => {
      const target = await pgTarget(dir, 'two');
      opened.push(target);
      const { day } = await records(target.ctx);
      const a = startSettler(target.url, day, {}, 150);
      const b = startSettler(target.url, day, {}, 150);
      children.push(a.child, b.child);
      const [ra, rb] = await Promise.all([a.done, b.done]);
      expect([ra.code, rb.code]).toEqual([0, 0]);
      const outcomes = [...ra.results, ...rb.results].map((r) => r.outcome).sort();
      console.log(`two settlers on one day: ${outcomes.join(', ')}`);
      // The one that came second finds the day held (busy) or, had it started after, already settled.
      expect(outcomes[0]).toBe(outcomes.includes('already') ? 'already' : 'busy');
      expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
      const total = [...ra.results, ...rb.results].reduce((s, r) => s + r.pledges + r.seeds, 0);
      expect(total).toBe(PLEDGES + SEEDS);
      await expectEachCreditOnce(target.ctx, day);
    },
    120_000,
  );
});
