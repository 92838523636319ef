/**
 * Issue 10, "One terminated PostgreSQL connection kills the server": a pooled connection can die at
 * any time (pg_terminate_backend, a restart, a failover, a proxy's idle timeout). The server logs it as
 * a warning, drops the connection and goes on serving; a request whose query was running on it answers
 * 500, alone; /healthz answers 503 while the database is unreachable and 200 again afterwards.
 *
 * PostgreSQL only (TEST_DATABASE_URL); skipped on SQLite. Only this file's own backends are ever
 * terminated: each pool is found by its `application_name`, which createDb sets to the test's schema
 * (unique per build) — other test files' connections are never touched.
 */
import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp, loggerOptions } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { systemClock } from '../../../server/clock';
import { createDb, dropPgSchema } from '../../../server/db/dialect';
import { ledgerViolations } from '../../../server/modules/ledger/ledger.service';
import { build, PG_URL, type TestApp } from '../helpers';
import { addMember, credit } from '../modules/deposits/fixtures';

const describeOnPg = PG_URL ? describe : describe.skip;
if (!PG_URL) console.log('pg-connection-loss: PostgreSQL only; run it with TEST_DATABASE_URL set');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Collects the JSON log lines of an app. */
function logSink() {
  const lines: { level: number; msg: string; err?: { message?: string } }[] = [];
  return { lines, stream: { write: (m: string) => void lines.push(JSON.parse(m)) } };
}
const lostReports = (lines: ReturnType<typeof logSink>['lines']) =>
  lines.filter((l) => l.level === 40 && l.msg.includes('PostgreSQL connection lost'));

describeOnPg('a PostgreSQL connection terminated under the server (needs TEST_DATABASE_URL)', () => {
  /** Our own connection for pg_stat_activity and pg_terminate_backend: never one of the app's. */
  let admin: pg.Client;
  let t: TestApp;
  let token: string;
  let appName = '';
  let schema = '';
  const log = logSink();

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL, application_name: `admin_${process.pid}` });
    await admin.connect();
    t = await build({ logStream: log.stream });
    token = await t.login();
    const r = await sql<{ name: string; schema: string }>`
      select current_setting('application_name') as name, current_schema() as schema`.execute(t.db.db);
    ({ name: appName, schema } = r.rows[0]);
    // The name is the per-build test schema: terminating by it can only hit this file's pool.
    expect(appName).toBe(schema);
    expect(appName).toMatch(/^t_\d+_/);
  });
  afterAll(async () => {
    await t?.close();
    await admin?.end();
  });

  /** Terminates every backend of this test's pool; answers how many there were. */
  async function terminatePool(): Promise<number> {
    const r = await admin.query<{ n: number }>(
      `select count(*) filter (where pg_terminate_backend(pid))::int as n
         from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()`,
      [appName],
    );
    return r.rows[0].n;
  }

  /** Waits until PostgreSQL has no backend of this pool left, and the pool has read their goodbyes. */
  async function waitGone() {
    for (let i = 0; i < 100; i++) {
      const r = await admin.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [appName],
      );
      if (r.rows[0].n === 0) break;
      await sleep(50);
    }
    await sleep(200);
  }

  const memberList = () => t.call('GET', '/v1/admin/member/list', { token, query: { page: 1, size: 10 } });
  const adjust = (id: number, amount: string) =>
    t.call('POST', '/v1/admin/member/opt', {
      token,
      body: { id, action: 'adjust', asset: 'USDT', amount, remark: '连接测试' },
    });
  const health = async () => (await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode;

  it('idle pooled connections terminated: a warning in the log, and the next requests succeed', async () => {
    // Several connections open and idle in the pool.
    const warm = await Promise.all(Array.from({ length: 8 }, memberList));
    for (const r of warm) expect(r.code).toBe(200);
    const before = lostReports(log.lines).length;

    expect(await terminatePool()).toBeGreaterThan(0);
    await waitGone();

    expect(lostReports(log.lines).length).toBeGreaterThan(before);
    const memberId = await addMember(t);
    const after = await Promise.all([...Array.from({ length: 8 }, memberList), adjust(memberId, '5')]);
    for (const r of after) expect(r.code).toBe(200);
    expect(await health()).toBe(200);
  });

  it('a connection killed in the middle of a request: that request answers 500, alone; the rest go on', async () => {
    const memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '1000');
    // Hold the bill table so an adjustment blocks mid-transaction on a checked-out connection.
    await admin.query('begin');
    await admin.query(`lock table ${schema}.bill in exclusive mode`);
    const blocked = adjust(memberId, '-10');
    let waiting = 0;
    for (let i = 0; i < 200 && waiting === 0; i++) {
      await sleep(25);
      const r = await admin.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
        [appName],
      );
      waiting = r.rows[0].n;
    }
    expect(waiting).toBe(1);
    expect(await terminatePool()).toBeGreaterThan(0);
    await admin.query('rollback');

    const r = await blocked;
    expect(r).toMatchObject({ code: 500, data: null });
    await waitGone();
    for (const x of await Promise.all([memberList(), adjust(memberId, '-10'), memberList()])) expect(x.code).toBe(200);
    // The killed transaction left nothing behind: one debit of 10, not two.
    const bills = await t.db.db
      .selectFrom('bill')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('member_id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(Number(bills.n)).toBe(2);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  it('connections terminated again and again under concurrent load: no crash, failures are clean 500s', async () => {
    const memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '100000');
    const results: number[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const r =
          (w + i) % 3 === 0
            ? await adjust(memberId, i % 2 ? '1' : '-1')
            : (w + i) % 3 === 1
              ? await memberList()
              : await t.call('GET', '/v1/admin/bill', { token, query: { page: 1, size: 10 } });
        results.push(r.code);
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));
    let killed = 0;
    for (let round = 0; round < 8; round++) {
      await sleep(120);
      killed += await terminatePool();
    }
    stop = true;
    await load;

    expect(killed).toBeGreaterThan(0);
    expect(results.length).toBeGreaterThan(50);
    // Every answer is a success or the generic 500 envelope (t.call throws on any other HTTP status).
    expect(results.filter((c) => c !== 200 && c !== 500)).toEqual([]);
    // The last round's victims have been read (every request has settled); the pool holds new ones.
    await sleep(100);
    const after = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? memberList() : adjust(memberId, '1'))),
    );
    for (const r of after) expect(r.code).toBe(200);
    expect(await health()).toBe(200);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });
});

/**
 * A TCP relay between the app and PostgreSQL: `down()` cuts every connection and refuses new ones
 * (what a network partition or a database host going away looks like to the app), `up()` restores it
 * on the same port. Honest unreachability without stopping the PostgreSQL other tests share.
 */
class Relay {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    const server = net.createServer((inbound) => {
      const outbound = net.connect(this.target);
      for (const s of [inbound, outbound]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  url(base: string): string {
    const u = new URL(base);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }
}

describeOnPg('/healthz while PostgreSQL is unreachable (needs TEST_DATABASE_URL)', () => {
  const target = () => {
    const u = new URL(PG_URL!);
    return { host: u.hostname || '127.0.0.1', port: Number(u.port || 5432) };
  };
  const schemas: string[] = [];
  const newSchema = () => {
    const s = `t_${process.pid}_${Date.now().toString(36)}_relay${schemas.length}`;
    schemas.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of schemas) await dropPgSchema(PG_URL!, s);
  });

  it('answers 503 while the database cannot be reached and 200 again afterwards, without a restart', async () => {
    const relay = new Relay(target());
    await relay.up();
    const handle = createDb(relay.url(PG_URL!), { pgSchema: newSchema(), poolSize: 4 });
    const log = logSink();
    const app = await buildApp({
      ctx: { db: handle.db, kind: handle.kind, config: loadConfig({}, '/tmp/lz-test'), clock: systemClock },
      logger: loggerOptions('info', log.stream),
      web: false,
    });
    const health = async () => (await app.inject({ method: 'GET', url: '/healthz' })).statusCode;
    try {
      expect(await health()).toBe(200);

      await relay.down();
      // The idle connection of each pool (the main one, the session lookups' generic-plan one: the
      // check reads through both) was cut: each reported once, neither fatal.
      for (let i = 0; i < 100 && lostReports(log.lines).length < 2; i++) await sleep(20);
      expect(lostReports(log.lines)).toHaveLength(2);
      expect(await health()).toBe(503);
      expect(await health()).toBe(503);
      const failed = log.lines.filter((l) => l.msg === 'health check failed');
      expect(failed.length).toBe(2);
      for (const l of failed) expect(l.level).toBe(40);

      await relay.up();
      expect(await health()).toBe(200);
      expect(await health()).toBe(200);
    } finally {
      await app.close();
      await handle.close();
      await relay.down();
    }
  });

  it('a database unreachable at the first query: that query fails, the next ones work once it is back', async () => {
    const relay = new Relay(target());
    await relay.up();
    const url = relay.url(PG_URL!);
    await relay.down();
    const handle = createDb(url, { pgSchema: newSchema(), poolSize: 2 });
    try {
      await expect(sql`select 1 as one`.execute(handle.db)).rejects.toThrow(/ECONNREFUSED|connect/);
      await relay.up();
      const r = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
      expect(r.rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
      await relay.down();
    }
  });
});
