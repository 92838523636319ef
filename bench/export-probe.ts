/** `node -r ./bench/register.js bench/export-probe.ts sqlite|pg csv|xlsx [rows]`: the order export in-process into a null sink (CPU per row; add --cpu-prof to profile). */
import { Writable } from 'node:stream';
import { createDb } from '../server/db/dialect';
import { orderExport } from '../server/modules/mall/orders.service';
import { writeExport } from '../server/export/export';

async function main() {
  const kind = process.argv[2] ?? 'sqlite';
  const format = (process.argv[3] ?? 'csv') as 'csv' | 'xlsx';
  const limit = Number(process.argv[4] ?? 200000);
  const url = kind === 'pg' ? 'postgres://postgres@127.0.0.1:5432/test' : 'sqlite:bench/out/bench.db';
  const { db, close } = createDb(url, kind === 'pg' ? { pgSchema: 'bench' } : {});
  const ctx: any = { db, kind: kind === 'pg' ? 'postgres' : 'sqlite', clock: { now: () => Date.now() } };
  const spec = await orderExport(ctx, {} as any);
  let rows = 0;
  const gen = spec.batches;
  spec.batches = (async function* () {
    for await (const b of gen) {
      yield b;
      rows += b.length;
      if (rows >= limit) return;
    }
  })();
  let bytes = 0;
  const out = new Writable({
    write(c, _e, cb) {
      bytes += c.length;
      cb();
    },
  });
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const n = await writeExport(spec, format, out);
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  const c = process.cpuUsage(cpu);
  console.log(
    format,
    n,
    'rows',
    s.toFixed(2),
    's',
    Math.round(n / s),
    'rows/s',
    'cpu',
    ((c.user + c.system) / 1e6).toFixed(2),
    's',
    'µs/row',
    ((c.user + c.system) / n).toFixed(1),
    'bytes',
    bytes,
    'rss',
    Math.round(process.memoryUsage().rss / 1e6),
    'MB',
  );
  await close();
}
void main();
