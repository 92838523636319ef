/**
 * Batch suite: withdraw/opt/batch approving N (1,000) pending withdrawals in one call on the real
 * server. Checks that every one was approved exactly once: the answer lists each id as succeeded,
 * the database shows each at status 1 with no bill added (approval moves no money), and the same call
 * again succeeds for none of them. `warm` (default 0) first approves that many pending 提取 (type 2) in
 * one call of its own, so the call measured runs on a server whose code is compiled (a server that has
 * been up a while) rather than one just started. `reset` (approvals only) puts the approved records back
 * to 待审核 with the remark read before the call and no auditor, removes the op-log rows the run added and
 * rebuilds withdrawal_stat, so the next run approves the same records; it refuses any database but the
 * bench's own (the PostgreSQL schema bench…, a SQLite file under bench/out).
 */
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../server/db/dialect';
import { fmt, log, OUT_DIR, PG_SCHEMA, PG_URL, SQLITE_FILE } from './lib/args';
import { cpuMsOfAll, serverPids, startServer } from './lib/proc';
import { login } from './api/suite';
import { WITHDRAWAL_TABLES } from './data/records';
import { rebuildWithdrawalStats, withdrawalStatViolations } from '../server/modules/withdrawals/withdrawals.repository';

export interface BatchResult {
  db: string;
  count: number;
  seconds: number;
  /** CPU seconds of the server (and its PostgreSQL backends) during the first call. */
  cpuSeconds?: number;
  /** Of which the PostgreSQL backends' (the rest is the Node.js server's). */
  dbCpuSeconds?: number;
  succeeded: number;
  failed: number;
  approvedInDb: number;
  billsAdded: number;
  opLogRows: number;
  repeatSeconds: number;
  repeatSucceeded: number;
  /** Extracts approved first to warm the server (0: the call measured is its first). */
  warmed?: number;
  /** --batch-reset: pending 提现 before the call and after they were put back (equal when it worked). */
  pendingBefore?: number;
  pendingAfterReset?: number;
  skipped?: string;
}

export async function runBatch(o: {
  db: 'sqlite' | 'pg';
  password: string;
  count: number;
  action: string;
  warm?: number;
  reset?: boolean;
}): Promise<BatchResult> {
  if (o.reset) {
    if (o.action !== 'approve') throw new Error('--batch-reset undoes approvals only (a rejection moves money)');
    const own =
      o.db === 'pg'
        ? PG_SCHEMA.startsWith('bench')
        : path.resolve(SQLITE_FILE).startsWith(path.resolve(OUT_DIR) + path.sep);
    if (!own) throw new Error('--batch-reset runs on the bench data only (schema bench…, a file under bench/out)');
  }
  const h = createDb(o.db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL, {
    pgSchema: o.db === 'pg' ? PG_SCHEMA : undefined,
  });
  const empty = {
    db: o.db,
    count: 0,
    seconds: 0,
    succeeded: 0,
    failed: 0,
    approvedInDb: 0,
    billsAdded: 0,
    opLogRows: 0,
    repeatSeconds: 0,
    repeatSucceeded: 0,
  };
  const server = await startServer(
    'bench/api/server.ts',
    ['--mode', 'real', '--db', o.db],
    o.db === 'pg' ? { PGAPPNAME: 'bench_batch' } : {},
  );
  try {
    let table: string | null = null;
    for (const t of WITHDRAWAL_TABLES) {
      try {
        await sql`select 1 from ${sql.table(t)} limit 1`.execute(h.db);
        table = t;
        break;
      } catch {
        // next name
      }
    }
    if (!table) return { ...empty, skipped: 'no withdrawal table' };
    const pending = async (type: number, limit: number) =>
      (
        await sql<{
          id: number;
        }>`select id from ${sql.table(table!)} where status = 0 and type = ${type} order by id limit ${limit}`.execute(
          h.db,
        )
      ).rows.map((r) => Number(r.id));
    const count = async (q: ReturnType<typeof sql<{ n: number }>>) => Number((await q.execute(h.db)).rows[0].n);
    const pendingCount = () =>
      count(sql<{ n: number }>`select count(*) as n from ${sql.table(table!)} where status = 0 and type = 1`);
    const pendingBefore = o.reset ? await pendingCount() : undefined;
    const ids = await pending(1, o.count);
    if (!ids.length) return { ...empty, skipped: 'no pending withdrawals left (rebuild with npm run bench:data)' };
    const inList = sql.join(ids.map((id) => sql`${id}`));
    const billsBefore = await count(
      sql<{ n: number }>`select count(*) as n from bill where ref_kind = 'withdrawal' and ref_id in (${inList})`,
    );
    const token = await login(server.port, o.password);
    const call = async (batchIds = ids, action = o.action, remark = '批量审核') => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${server.port}/v1/admin/withdraw/opt/batch`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: batchIds, action, remark }),
      });
      const body = (await res.json()) as {
        code: number;
        msg: string;
        data?: { succeeded?: unknown[]; failed?: unknown[] };
      };
      return { seconds: (performance.now() - t0) / 1000, body };
    };
    const warmed = o.warm
      ? ((await call(await pending(2, o.warm), 'approve', '预热')).body.data?.succeeded?.length ?? 0)
      : 0;
    const logBefore = await count(sql<{ n: number }>`select count(*) as n from op_log`);
    const lastLogId = await count(sql<{ n: number }>`select coalesce(max(id), 0) as n from op_log`);
    // What the approval changes, as it was (restored by `reset`).
    const before = o.reset
      ? (
          await sql<{
            id: number;
            remark: string;
          }>`select id, remark from ${sql.table(table)} where id in (${inList})`.execute(h.db)
        ).rows
      : [];
    const serverProcesses = () => serverPids(server.proc.pid!, o.db === 'pg' ? 'bench_batch' : null, PG_URL);
    const pids = await serverProcesses();
    const cpu0 = new Map(pids.map((p) => [p, cpuMsOfAll([p])]));
    const first = await call();
    // The pool opens connections during the call: their backends count from zero.
    const after = await serverProcesses();
    const used = after.map((p) => (cpuMsOfAll([p]) - (cpu0.get(p) ?? 0)) / 1000);
    const cpuSeconds = used.reduce((a, b) => a + b, 0);
    const dbCpuSeconds = cpuSeconds - used[0];
    if (first.body.code !== 200)
      return { ...empty, count: ids.length, skipped: `code ${first.body.code} ${first.body.msg}` };
    const approvedInDb = await count(
      sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where status = 1 and id in (${inList})`,
    );
    const billsAdded =
      (await count(
        sql<{ n: number }>`select count(*) as n from bill where ref_kind = 'withdrawal' and ref_id in (${inList})`,
      )) - billsBefore;
    const opLogRows = (await count(sql<{ n: number }>`select count(*) as n from op_log`)) - logBefore;
    const again = await call();
    let pendingAfterReset: number | undefined;
    if (o.reset) {
      for (const b of before) {
        await sql`update ${sql.table(table)} set status = 0, remark = ${b.remark}, auditor_id = null, auditor_name = null, audited_at = null where id = ${b.id} and status = 1`.execute(
          h.db,
        );
      }
      await sql`delete from op_log where id > ${lastLogId} and username = 'admin'`.execute(h.db);
      await rebuildWithdrawalStats(h.db);
      const violations = (await withdrawalStatViolations(h.db)).length;
      if (violations) throw new Error(`--batch-reset: withdrawal_stat has ${violations} violations after its rebuild`);
      pendingAfterReset = await pendingCount();
    }
    const r: BatchResult = {
      db: o.db,
      count: ids.length,
      seconds: first.seconds,
      cpuSeconds,
      ...(o.db === 'pg' ? { dbCpuSeconds } : {}),
      succeeded: first.body.data?.succeeded?.length ?? 0,
      failed: first.body.data?.failed?.length ?? 0,
      approvedInDb,
      billsAdded,
      opLogRows,
      repeatSeconds: again.seconds,
      repeatSucceeded: again.body.data?.succeeded?.length ?? 0,
      warmed,
      ...(o.reset ? { pendingBefore, pendingAfterReset } : {}),
    };
    log(
      `batch ${o.db}: ${warmed ? `after ${warmed} to warm, ` : ''}${fmt(r.count)} approvals in ${r.seconds.toFixed(2)} s (server CPU ${cpuSeconds.toFixed(2)} s${o.db === 'pg' ? `, of which PostgreSQL ${dbCpuSeconds.toFixed(2)} s` : ''}): ${r.succeeded} succeeded, ${r.failed} failed, ${r.approvedInDb} at status 1 in the database, ${r.billsAdded} bills added, ${r.opLogRows} op-log rows; the same call again: ${r.repeatSucceeded} succeeded in ${r.repeatSeconds.toFixed(2)} s${o.reset ? `; put back: ${pendingBefore} pending 提现 before, ${pendingAfterReset} after` : ''}`,
    );
    return r;
  } finally {
    await server.stop();
    await h.close();
  }
}
