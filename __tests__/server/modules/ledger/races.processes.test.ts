/**
 * Races on money (issue 4, "Races"): 50 concurrent approve / paid / reject calls on one withdrawal and
 * 50 concurrent confirms on one deposit → exactly one success per transition, the others 409 with the
 * Chinese message, exactly one bill and one op-log row; and 50 concurrent balance debits → as many
 * succeed as the balance allows, never below zero.
 *
 * Two settings:
 *   - two real server processes (`server/main.ts`, started as `npm run bench` starts code: plain Node
 *     with @babel/register) sharing one fresh PostgreSQL schema, the calls spread over both over
 *     HTTP. Needs TEST_DATABASE_URL; skipped with a message without it.
 *   - one server in this process (app.inject), on whichever database the test run uses: on SQLite the
 *     calls interleave between statements, on PostgreSQL they run in parallel over the pool.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { systemClock } from '../../../../server/clock';
import type { Ctx } from '../../../../server/context';
import { loadConfig } from '../../../../server/config';
import { createDb, dropPgSchema, type Db } from '../../../../server/db/dialect';
import { depositStatViolations } from '../../../../server/modules/deposits/deposits.repository';
import { DepositMessages, submitDeposit } from '../../../../server/modules/deposits/deposits.service';
import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { withdrawalStatViolations } from '../../../../server/modules/withdrawals/withdrawals.repository';
import { requestWithdrawal } from '../../../../server/modules/withdrawals/requestWithdrawal.service';
import { WithdrawMessages } from '../../../../server/modules/withdrawals/withdrawals.service';
import { ADMIN_PASSWORD, build, dbKind, PG_URL, type TestApp } from '../../helpers';
import { addDepositAccount, addMember, credit, trc20Address, trc20Tx } from '../deposits/fixtures';

const N = 50;

interface Envelope {
  code: number;
  msg: string;
  data: any;
}
/** Calls the API through server `which` (0 or 1). */
type Caller = (which: number, url: string, body: unknown) => Promise<Envelope>;

/** The fixtures need only a database handle and a clock. */
const fixtureApp = (ctx: Ctx) => ({ db: { db: ctx.db }, clock: ctx.clock }) as unknown as TestApp;

/** All N calls start before any is awaited; call i goes to server i % 2. */
async function storm(call: Caller, url: string, bodyOf: (i: number) => unknown): Promise<Envelope[]> {
  return Promise.all(Array.from({ length: N }, (_, i) => call(i % 2, url, bodyOf(i))));
}

function expectOneWinner(rs: Envelope[], conflictMsg: string) {
  const winners = rs.filter((r) => r.code === 200);
  const losers = rs.filter((r) => r.code !== 200);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(N - 1);
  for (const r of losers) expect({ code: r.code, msg: r.msg }).toEqual({ code: 409, msg: conflictMsg });
  return winners[0];
}

async function billsFor(ctx: Ctx, kind: string, id: number) {
  return ctx.db
    .selectFrom('bill')
    .select(['type', 'asset'])
    .select((eb) => [
      eb.cast<string>('change', 'text').as('change'),
      eb.cast<string>('frozen_change', 'text').as('frozen'),
    ])
    .where('ref_kind', '=', kind)
    .where('ref_id', '=', id)
    .orderBy('id')
    .execute();
}

async function opLogsFor(ctx: Ctx, target: string) {
  const r = await ctx.db
    .selectFrom('op_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('target', '=', target)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The scenarios, the same for both settings. `ctx` is a handle on the servers' database. */
function scenarios(get: () => { call: Caller; ctx: Ctx }) {
  const withdrawal = async (amount = '100') => {
    const { ctx } = get();
    const t = fixtureApp(ctx);
    const memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '1000');
    const w = await requestWithdrawal(ctx, {
      memberId,
      type: 1,
      amount,
      chain: 'TRC20',
      address: trc20Address(),
    });
    expect(w.status).toBe(0);
    return { id: w.id, memberId };
  };
  const opt = (id: number, action: string) => (i: number) => ({
    id,
    action,
    ...(action === 'paid' ? { txHash: String(i).padStart(64, '0') } : {}), // TRC20: 64 hex digits
    ...(action === 'reject' ? { remark: `驳回${i}` } : {}),
  });
  const WITHDRAW = '/v1/admin/withdraw/opt';

  it(`${N} approves, then ${N} paid calls on one withdrawal: one success each, one 提现成功 bill`, async () => {
    const { call, ctx } = get();
    const { id, memberId } = await withdrawal('100');
    const approved = expectOneWinner(await storm(call, WITHDRAW, opt(id, 'approve')), WithdrawMessages.handled);
    expect(approved.data).toEqual({ id, status: 1 });
    const paid = expectOneWinner(await storm(call, WITHDRAW, opt(id, 'paid')), WithdrawMessages.handled);
    expect(paid.data).toEqual({ id, status: 2 });
    expect(await billsFor(ctx, 'withdrawal', id)).toEqual([
      { type: 2, asset: 'USDT', change: '-100000000', frozen: '100000000' },
      { type: 3, asset: 'USDT', change: '0', frozen: '-100000000' },
    ]);
    expect((await balancesOf(ctx.db, memberId)).USDT).toEqual({ available: 900_000_000n, frozen: 0n });
    expect(await opLogsFor(ctx, `withdrawal#${id}`)).toBe(2);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await withdrawalStatViolations(ctx.db)).toEqual([]);
  });

  it(`${N} rejects on one pending withdrawal: one success, one 提现驳回 bill, the balance restored`, async () => {
    const { call, ctx } = get();
    const { id, memberId } = await withdrawal('250');
    const won = expectOneWinner(await storm(call, WITHDRAW, opt(id, 'reject')), WithdrawMessages.handled);
    expect(won.data).toEqual({ id, status: 3 });
    expect((await billsFor(ctx, 'withdrawal', id)).map((b) => b.type)).toEqual([2, 4]);
    expect((await balancesOf(ctx.db, memberId)).USDT).toEqual({ available: 1_000_000_000n, frozen: 0n });
    expect(await opLogsFor(ctx, `withdrawal#${id}`)).toBe(1);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await withdrawalStatViolations(ctx.db)).toEqual([]);
  });

  it(`${N} mixed paid and reject calls on one approved withdrawal: exactly one of them wins`, async () => {
    const { call, ctx } = get();
    const { id, memberId } = await withdrawal('300');
    expect((await call(0, WITHDRAW, { id, action: 'approve' })).code).toBe(200);
    const rs = await storm(call, WITHDRAW, (i) => opt(id, i % 4 < 2 ? 'paid' : 'reject')(i));
    const won = expectOneWinner(rs, WithdrawMessages.handled);
    const bills = await billsFor(ctx, 'withdrawal', id);
    expect(bills).toHaveLength(2);
    const bal = (await balancesOf(ctx.db, memberId)).USDT;
    if (won.data.status === 2) {
      expect(bills[1].type).toBe(3);
      expect(bal).toEqual({ available: 700_000_000n, frozen: 0n });
    } else {
      expect(won.data.status).toBe(3);
      expect(bills[1].type).toBe(4);
      expect(bal).toEqual({ available: 1_000_000_000n, frozen: 0n });
    }
    expect(await opLogsFor(ctx, `withdrawal#${id}`)).toBe(2);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await withdrawalStatViolations(ctx.db)).toEqual([]);
  });

  it(`${N} concurrent debits of one member's balance (member/opt adjust): never below zero`, async () => {
    const { call, ctx } = get();
    const t = fixtureApp(ctx);
    const memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '1000');
    const rs = await storm(call, '/v1/admin/member/opt', (i) => ({
      id: memberId,
      action: 'adjust',
      asset: 'USDT',
      amount: '-30',
      remark: `扣减${i}`,
    }));
    // 1000 / 30: 33 debits fit, 10 USDT stays; every other call is refused with the balance it saw
    expect(rs.filter((r) => r.code === 200)).toHaveLength(33);
    for (const r of rs.filter((x) => x.code !== 200))
      expect({ code: r.code, msg: r.msg }).toEqual({ code: 409, msg: '可用余额不足，当前可用 10.00 USDT' });
    expect((await balancesOf(ctx.db, memberId)).USDT).toEqual({ available: 10_000_000n, frozen: 0n });
    const bills = await ctx.db
      .selectFrom('bill')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('member_id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(Number(bills.n)).toBe(1 + 33);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await withdrawalStatViolations(ctx.db)).toEqual([]);
  });

  const deposit = async (amount: string) => {
    const { ctx } = get();
    const t = fixtureApp(ctx);
    const memberId = await addMember(t);
    const d = await submitDeposit(ctx, {
      memberId,
      chain: 'TRC20',
      fromAddress: trc20Address(),
      amount,
      txHash: trc20Tx(),
    });
    return { id: d.id, memberId };
  };

  it(`${N} confirms on one deposit: one success, one 充值 bill`, async () => {
    const { call, ctx } = get();
    const { id, memberId } = await deposit('88.5');
    const won = expectOneWinner(
      await storm(call, '/v1/admin/deposit/opt', () => ({ id, action: 'confirm' })),
      DepositMessages.handled,
    );
    expect(won.data).toEqual({ id, status: 1 });
    expect(await billsFor(ctx, 'deposit', id)).toEqual([{ type: 1, asset: 'USDT', change: '88500000', frozen: '0' }]);
    expect((await balancesOf(ctx.db, memberId)).USDT).toEqual({ available: 88_500_000n, frozen: 0n });
    expect(await opLogsFor(ctx, `deposit#${id}`)).toBe(1);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await withdrawalStatViolations(ctx.db)).toEqual([]);
    expect(await depositStatViolations(ctx.db)).toEqual([]);
  });

  it(`${N} mixed confirms and rejects on one deposit: exactly one wins, at most one bill`, async () => {
    const { call, ctx } = get();
    const { id, memberId } = await deposit('20');
    const rs = await storm(call, '/v1/admin/deposit/opt', (i) =>
      i % 2 ? { id, action: 'confirm' } : { id, action: 'reject', remark: `驳回${i}` },
    );
    const won = expectOneWinner(rs, DepositMessages.handled);
    const bills = await billsFor(ctx, 'deposit', id);
    expect(bills).toHaveLength(won.data.status === 1 ? 1 : 0);
    expect((await balancesOf(ctx.db, memberId)).USDT.available).toBe(won.data.status === 1 ? 20_000_000n : 0n);
    expect(await opLogsFor(ctx, `deposit#${id}`)).toBe(1);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await withdrawalStatViolations(ctx.db)).toEqual([]);
    expect(await depositStatViolations(ctx.db)).toEqual([]);
  });
}

// ---- two server processes on one PostgreSQL ----

const ROOT = path.resolve(__dirname, '../../../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function withoutTestEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _n, BABEL_ENV: _b, TEST_DATABASE_URL: _t, ...rest } = env;
  return rest;
}

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Starts `server/main.ts` in its own Node process and waits for its "running at" line. */
async function startServer(databaseUrl: string, uploadDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', './bench/register.js', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      // As `npm run bench` starts it (Jest's NODE_ENV=test would only change Babel's cache key).
      ...withoutTestEnv(process.env),
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      UPLOAD_DIR: uploadDir,
      WEB_DIR: path.join(uploadDir, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a server left running would keep Jest from exiting
      reject(new Error(`server on port ${port} did not start in 150 s:\n${out}`));
    }, 150_000);
    const onData = () => {
      if (out.includes('running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    // The banner goes to stderr (stdout is the JSON log).
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server on port ${port} exited with ${code}:\n${out}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, port, output: () => out };
}

async function stopServer(s: Server) {
  if (s.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => s.child.kill('SIGKILL'), 15_000);
    s.child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    s.child.kill('SIGTERM');
  });
}

const describeOnPg = PG_URL ? describe : describe.skip;
if (!PG_URL) {
  console.log(
    'races.processes: the two-process races need PostgreSQL and are skipped; run them with ' +
      'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx jest --ci -w 1 --selectProjects server ' +
      '__tests__/server/modules/ledger/races.processes.test.ts',
  );
}

describeOnPg('races through two server processes sharing one PostgreSQL (needs TEST_DATABASE_URL)', () => {
  const schema = `t_races_${process.pid}_${Date.now().toString(36)}`;
  let dir = '';
  const servers: Server[] = [];
  const tokens: string[] = [];
  let handle: Db;
  let ctx: Ctx;

  const http = async (which: number, url: string, body: unknown, token = tokens[which]): Promise<Envelope> => {
    const res = await fetch(`http://127.0.0.1:${servers[which].port}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status} from server ${which} for ${url}: ${await res.text()}`);
    return (await res.json()) as Envelope;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-races-'));
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA ${schema}`);
    } finally {
      await c.end();
    }
    const url = new URL(PG_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    // One after the other: the first migrates and creates the admin, the second finds them.
    servers.push(await startServer(url.toString(), dir));
    servers.push(await startServer(url.toString(), dir));
    for (const which of [0, 1]) {
      const r = await http(which, '/v1/admin/user/login', { username: 'admin', password: ADMIN_PASSWORD }, '');
      expect(r.code).toBe(200);
      tokens.push(r.data.token);
    }
    handle = createDb(PG_URL!, { pgSchema: schema, poolSize: 4 });
    ctx = {
      db: handle.db,
      kind: handle.kind,
      config: loadConfig({}, dir),
      clock: systemClock,
      log: console as unknown as Ctx['log'],
    };
    await addDepositAccount(fixtureApp(ctx), 'TRC20');
  }, 330_000);

  afterAll(async () => {
    for (const s of servers) await stopServer(s);
    await handle?.close();
    await dropPgSchema(PG_URL!, schema);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('serves from two processes', () => {
    expect(servers.map((s) => s.child.pid)).toHaveLength(2);
    expect(new Set(servers.map((s) => s.child.pid)).size).toBe(2);
  });

  scenarios(() => ({ call: (which, url, body) => http(which, url, body), ctx }));
});

// ---- one server in this process ----

describe(`races through one server in this process (${dbKind})`, () => {
  let t: TestApp;
  const tokens: string[] = [];
  beforeAll(async () => {
    t = await build();
    // Two sessions of the super manager: the calls alternate between them.
    tokens.push(await t.login(), await t.login());
    await addDepositAccount(t, 'TRC20');
  }, 60_000);
  afterAll(() => t.close());

  scenarios(() => ({
    call: (which, url, body) => t.call('POST', url, { token: tokens[which], body }),
    ctx: t.app.ctx,
  }));
});
