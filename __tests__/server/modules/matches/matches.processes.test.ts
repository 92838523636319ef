/**
 * Arbitration races through two real server processes (`server/main.ts`, started as
 * races.processes.test.ts starts them) sharing one fresh PostgreSQL schema: 50 concurrent complete /
 * cancel calls on one appealed match, spread over both → exactly one success, the others 409 "该撮合已处理",
 * the LZ moved once, one op-log row. Needs TEST_DATABASE_URL; skipped without it (the in-process race
 * of matches.routes.test.ts runs on both databases).
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
import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { matchStatViolations } from '../../../../server/modules/matches/matches.repository';
import { appeal, markPaid, MatchMessages, openMatch } from '../../../../server/modules/matches/matches.service';
import { addPaymentMethod, paymentOpt } from '../../../../server/modules/payments/payments.service';
import { ADMIN_PASSWORD, PG_URL, type TestApp } from '../../helpers';
import { addMember, credit } from '../deposits/fixtures';

const N = 50;
const ROOT = path.resolve(__dirname, '../../../..');

interface Envelope {
  code: number;
  msg: string;
  data: any;
}
interface Server {
  child: ChildProcess;
  port: number;
}

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

async function startServer(databaseUrl: string, dir: string): Promise<Server> {
  const port = await freePort();
  const { NODE_ENV: _n, BABEL_ENV: _b, TEST_DATABASE_URL: _t, ...env } = process.env;
  const child = spawn(process.execPath, ['-r', './bench/register.js', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      SETTLE_ENABLED: 'false',
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      UPLOAD_DIR: dir,
      WEB_DIR: path.join(dir, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server on port ${port} did not start in 150 s:\n${out}`));
    }, 150_000);
    const onData = (b: Buffer) => {
      out += b;
      if (out.includes('running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server on port ${port} exited with ${code}:\n${out}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, port };
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

describeOnPg('match arbitration through two server processes sharing one PostgreSQL', () => {
  const schema = `t_match_races_${process.pid}_${Date.now().toString(36)}`;
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
    if (res.status !== 200) throw new Error(`HTTP ${res.status} from server ${which}: ${await res.text()}`);
    return (await res.json()) as Envelope;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-match-races-'));
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA ${schema}`);
    } finally {
      await c.end();
    }
    const url = new URL(PG_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
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
  }, 330_000);

  afterAll(async () => {
    for (const s of servers) await stopServer(s);
    await handle?.close();
    await dropPgSchema(PG_URL!, schema);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`${N} complete/cancel calls on one appealed match over two processes: one success`, async () => {
    const t = { db: { db: ctx.db }, clock: ctx.clock } as unknown as TestApp;
    const [seller, buyer] = [await addMember(t), await addMember(t)];
    await credit(t, seller, 'LZ', '500');
    const method = await addPaymentMethod(ctx, {
      memberId: seller,
      type: 3,
      holder: '王芳',
      account: 'wx_1',
      qrUrl: '/uploads/q.png',
    });
    const admin = await ctx.db
      .selectFrom('manager')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    await paymentOpt(
      ctx,
      { managerId: Number(admin.id), username: 'admin', ip: '127.0.0.1' },
      { id: method.id, action: 'approve' },
    );
    const m = await openMatch(ctx, { sellerId: seller, buyerId: buyer, quantity: 2_000_000n, unitPrice: 500_000n });
    await markPaid(ctx, { matchId: m.id, buyerId: buyer, proofUrl: '/uploads/p.png' });
    await appeal(ctx, { matchId: m.id, memberId: buyer, reason: '卖家不确认收款' });

    const rs = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        http(i % 2, '/v1/admin/match/opt', { id: m.id, action: i % 3 ? 'complete' : 'cancel', remark: `仲裁${i}` }),
      ),
    );
    const won = rs.filter((r) => r.code === 200);
    expect(won).toHaveLength(1);
    for (const r of rs.filter((x) => x.code !== 200))
      expect({ code: r.code, msg: r.msg }).toEqual({ code: 409, msg: MatchMessages.handled });
    const completed = won[0].data.status === 3;
    expect((await balancesOf(ctx.db, seller)).LZ).toEqual({
      available: completed ? 3_000_000n : 5_000_000n,
      frozen: 0n,
    });
    expect((await balancesOf(ctx.db, buyer)).LZ).toEqual({ available: completed ? 2_000_000n : 0n, frozen: 0n });
    const logs = await ctx.db.selectFrom('op_log').select('id').where('target', '=', `match#${m.id}`).execute();
    expect(logs).toHaveLength(1);
    expect(await ledgerViolations(ctx.db)).toEqual([]);
    expect(await billStatViolations(ctx.db)).toEqual([]);
    expect(await matchStatViolations(ctx.db)).toEqual([]);
  }, 120_000);
});
