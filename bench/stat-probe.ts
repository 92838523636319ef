/** `node -r ./bench/register.js bench/stat-probe.ts sqlite|pg`: times the statistics' reads one by one on the bench database, in-process. */
import { createDb } from '../server/db/dialect';
import { billDays, memberDays, orderDays, snapshot } from '../server/modules/stats/stats.repository';
import { getStat } from '../server/modules/stats/stats.service';
import { dayOf } from '../server/db/dayBuckets';

async function main() {
  const kind = process.argv[2] ?? 'sqlite';
  const url = kind === 'pg' ? 'postgres://postgres@127.0.0.1:5432/test' : 'sqlite:bench/out/bench.db';
  const { db, close } = createDb(url, kind === 'pg' ? { pgSchema: 'bench' } : {});
  const to = dayOf(Date.now());
  const from = to - 365;
  const types = [1, 3, 7, 8, 10, 12];
  const time = async (name: string, f: () => Promise<unknown>, n = 200) => {
    for (let i = 0; i < 20; i++) await f();
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await f();
    console.log(name, (Number(process.hrtime.bigint() - t) / 1e6 / n).toFixed(3), 'ms');
  };
  const ctx: any = { db, clock: { now: () => Date.now() } };
  await time('bills', () => billDays(db, types, from, to));
  await time('orders', () => orderDays(db, from, to));
  await time('members', () => memberDays(db, from, to));
  await time('snapshot', () => snapshot(db));
  const start = new Date(Date.now() + 8 * 3600e3 - 365 * 86400e3).toISOString().slice(0, 10);
  await time('getStat', () => getStat(ctx, { start }));
  const r = await billDays(db, types, from, to);
  console.log('bill rows', r.length);
  await close();
}
void main();
