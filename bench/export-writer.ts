/**
 * Export writer bench, no database, no HTTP: N synthetic rows shaped like payment methods (10 columns,
 * Chinese text, a number, digits-only accounts, a Shanghai time) go through `writeExport` into a sink
 * that discards. Each format runs in its own child process so its peak RSS is its own.
 *
 *   node -r ./bench/register.js bench/export-writer.ts [--rows 1m] [--formats xlsx,csv,none] [--batch 2000]
 *       [--source synthetic|sqlite|pg]
 *
 * `none` reads the same batches and calls every column's value function but writes nothing: the floor
 * (row generation + formatting) to subtract from the other two. CPU seconds are the process's
 * (user + system, every thread: zlib runs on the thread pool).
 *
 * `--source sqlite|pg` exports the bench database's payment methods instead (the real
 * `paymentExport`: repository batches, row mapping, the 15 columns; all rows, `--rows` ignored): the
 * whole server path minus HTTP, in one process that can run under `node --cpu-prof`.
 */
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { formatTime } from '../domain/time';
import type { Ctx } from '../server/context';
import { createDb } from '../server/db/dialect';
import { EXPORT_BATCH_SIZE, keysetBatches, writeExport, type ExportSpec } from '../server/export/export';
import { paymentExport } from '../server/modules/payments/payments.service';
import { fmt, intFlag, listFlag, parseFlags, PG_SCHEMA, PG_URL, SQLITE_FILE, strFlag } from './lib/args';

interface Row {
  id: number;
  uid: string;
  phone: string;
  nickname: string;
  type: number;
  holder: string;
  account: string;
  bank: string;
  status: number;
  createdAt: number;
}

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '欧阳', '司马'];
const GIVEN = ['伟', '芳', '娜', '秀英', '敏', '静', '丽', '强', '磊', '军', '洋', '艳'];
const BANKS = ['工商银行', '建设银行', '农业银行', '中国银行', '招商银行', '交通银行'];
const TYPES = ['银行卡', '支付宝', '微信', 'USDT-TRC20'];
const STATUSES = ['待审核', '已通过', '已驳回', '已禁用'];
const T0 = Date.UTC(2026, 0, 1);

function rowOf(id: number): Row {
  const name = SURNAMES[id % SURNAMES.length] + GIVEN[(id >> 3) % GIVEN.length];
  const type = (id % 4) + 1;
  return {
    id,
    uid: String(10_000_000 + id),
    phone: `13${String(id * 7919)
      .padStart(9, '0')
      .slice(-9)}`,
    nickname: id % 5 === 0 ? `=${name}` : `${name}的小店${id % 1000}`, // 1 in 5 needs defusing
    type,
    holder: name,
    account: type === 1 ? `62220${String(id).padStart(11, '0')}` : type === 4 ? `T${id}xYz` : `${id}@qq.com`,
    bank: type === 1 ? BANKS[id % BANKS.length] : '',
    status: id % 4,
    createdAt: T0 + id * 1000,
  };
}

function spec(rows: number, batchSize: number): ExportSpec<Row> {
  const fetch = async (after: number | null, limit: number) => {
    const top = after === null ? rows : after - 1;
    const out: Row[] = [];
    for (let id = top; id >= 1 && out.length < limit; id -= 1) out.push(rowOf(id));
    return out;
  };
  return {
    title: '收款方式',
    columns: [
      { header: 'ID', width: 10, value: (r) => r.id },
      { header: '会员UID', width: 12, value: (r) => r.uid },
      { header: '手机号', width: 14, value: (r) => r.phone },
      { header: '昵称', width: 14, value: (r) => r.nickname },
      { header: '类型', width: 12, value: (r) => TYPES[r.type - 1] },
      { header: '姓名', width: 12, value: (r) => r.holder },
      { header: '账号', width: 36, value: (r) => r.account },
      { header: '开户银行', width: 16, value: (r) => r.bank },
      { header: '状态', width: 10, value: (r) => STATUSES[r.status] },
      { header: '添加时间', width: 20, value: (r) => formatTime(r.createdAt) },
    ],
    batches: keysetBatches(fetch, (r) => r.id, batchSize),
  };
}

interface Result {
  format: string;
  rows: number;
  bytes: number;
  seconds: number;
  cpuSeconds: number;
  baselineRss: number;
  peakRss: number;
  maxRss: number;
}

/** The spec to export, and what to close after. */
function source(kind: string, rows: number, batchSize: number): { s: ExportSpec<unknown>; close(): Promise<void> } {
  if (kind === 'synthetic') return { s: spec(rows, batchSize) as ExportSpec<unknown>, close: async () => {} };
  if (kind !== 'sqlite' && kind !== 'pg') throw new Error(`--source synthetic|sqlite|pg, got ${kind}`);
  const h = createDb(kind === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL, {
    pgSchema: kind === 'pg' ? PG_SCHEMA : undefined,
  });
  const s = paymentExport({ db: h.db, kind: h.kind } as Ctx, {}, batchSize) as ExportSpec<unknown>;
  return { s, close: () => h.close() };
}

async function child(format: string, from: string, rows: number, batchSize: number): Promise<Result> {
  const { s, close } = source(from, rows, batchSize);
  let bytes = 0;
  const sink = new Writable({
    highWaterMark: 256 * 1024, // what sendExport's PassThrough holds
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  if (format === 'none') {
    for await (const batch of s.batches) {
      for (const r of batch) for (const c of s.columns) c.value(r);
      n += batch.length;
    }
  } else {
    const done = new Promise((resolve) => sink.on('finish', resolve));
    n = await writeExport(s, format as 'xlsx' | 'csv', sink);
    await done;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  await close();
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return {
    format,
    rows: n,
    bytes,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    baselineRss,
    peakRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
}

async function main() {
  const flags = parseFlags();
  const rows = intFlag(flags, 'rows', 1_000_000);
  const batch = intFlag(flags, 'batch', EXPORT_BATCH_SIZE);
  const from = strFlag(flags, 'source', 'synthetic');
  const only = strFlag(flags, 'child', '');
  if (only) {
    process.stdout.write(`${JSON.stringify(await child(only, from, rows, batch))}\n`);
    return;
  }
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
  console.log(
    `export writer: ${from === 'synthetic' ? `${fmt(rows)} synthetic rows` : `${from} payment_method`}, batches of ${fmt(batch)}, node ${process.version}`,
  );
  console.log('| format | rows | seconds | rows/s | CPU s | rows per CPU s | output | RSS before → peak (maxRSS) |');
  console.log('| ------ | ---- | ------- | ------ | ----- | -------------- | ------ | -------------------------- |');
  for (const format of listFlag(flags, 'formats', ['xlsx', 'csv', 'none'])) {
    const p = spawnSync(
      process.execPath,
      [
        '-r',
        `${__dirname}/register.js`,
        __filename,
        '--child',
        format,
        '--rows',
        String(rows),
        '--batch',
        String(batch),
        '--source',
        from,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
    );
    if (p.status !== 0) throw new Error(`${format}: child exited ${p.status}`);
    const r = JSON.parse(p.stdout.trim().split('\n').pop()!) as Result;
    console.log(
      `| ${r.format} | ${fmt(r.rows)} | ${r.seconds.toFixed(1)} | ${fmt(r.rows / r.seconds)} | ${r.cpuSeconds.toFixed(1)} | ${fmt(r.rows / r.cpuSeconds)} | ${mb(r.bytes)} | ${mb(r.baselineRss)} → ${mb(r.peakRss)} (${mb(r.maxRss)}) |`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
