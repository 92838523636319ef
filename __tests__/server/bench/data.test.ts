/**
 * Smoke run of `npm run bench:data` at a tiny scale: the bulk paths (SQLite, and PostgreSQL when
 * TEST_DATABASE_URL is set) produce a consistent data set. Correctness only, never timing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
process.env.BENCH_SQLITE = path.join(dir, 'bench.db');
process.env.BENCH_PG_SCHEMA = `bench_smoke_${process.pid}`;
if (process.env.TEST_DATABASE_URL) process.env.BENCH_PG_URL = process.env.TEST_DATABASE_URL;

// Loaded after the environment names the smoke databases.
const { buildDataSet } = require('../../../bench/data') as typeof import('../../../bench/data');
const { generate } = require('../../../bench/data/generate') as typeof import('../../../bench/data/generate');
const { createDb, dropPgSchema } = require('../../../server/db/dialect') as typeof import('../../../server/db/dialect');

const scale = {
  members: 200,
  bills: 2_000,
  deposits: 150,
  withdrawals: 200,
  payments: 100,
  zones: 5,
  seed: 7,
  end: Date.UTC(2026, 10, 23, 12),
  pledges: 150,
  seeds: 150,
  matches: 120,
  releases: 1_500,
  products: 20,
  orders: 300,
};

const quiet = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
afterAll(() => {
  quiet.mockRestore();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function checks(url: string, pgSchema?: string) {
  const h = createDb(url, { pgSchema });
  try {
    const one = async (q: ReturnType<typeof sql<{ n: number }>>) => Number((await q.execute(h.db)).rows[0].n);
    // Every bill carries the running balances of its account, in id order.
    expect(
      await one(sql<{ n: number }>`select count(*) as n from (
        select available_after, frozen_after,
               sum(change) over (partition by member_id, asset order by id) as a,
               sum(frozen_change) over (partition by member_id, asset order by id) as f
        from bill) x where a <> available_after or f <> frozen_after or a < 0 or f < 0`),
    ).toBe(0);
    // Bills never predate their member.
    expect(
      await one(
        sql<{
          n: number;
        }>`select count(*) as n from bill b join member m on m.id = b.member_id where b.created_at < m.created_at`,
      ),
    ).toBe(0);
    expect(
      await one(
        sql<{ n: number }>`select count(*) as n from (select phone from member group by phone having count(*) > 1) x`,
      ),
    ).toBe(0);
    const phones = (await sql<{ phone: string; uid: string }>`select phone, uid from member`.execute(h.db)).rows;
    expect(phones.every((r) => /^1[3-9]\d{9}$/.test(r.phone) && /^\d{8}$/.test(r.uid))).toBe(true);
    // A confirmed deposit has exactly one bill; a paid withdrawal two (freeze, success); a pending one one.
    expect(
      await one(sql<{ n: number }>`select count(*) as n from deposit d
        where (d.status = 1) <> ((select count(*) from bill b where b.ref_kind = 'deposit' and b.ref_id = d.id) = 1)`),
    ).toBe(0);
    expect(
      await one(sql<{ n: number }>`select count(*) as n from withdrawal w
        where (select count(*) from bill b where b.ref_kind = 'withdrawal' and b.ref_id = w.id)
              <> case when w.status in (2, 3) then 2 else 1 end`),
    ).toBe(0);
    expect(
      await one(sql<{ n: number }>`select count(*) as n from withdrawal where status = 0 and type = 1`),
    ).toBeGreaterThan(0);
    expect(
      await one(sql<{ n: number }>`select count(*) as n from zone z
        where member_count <> (select count(*) from member m where m.zone_id = z.id)`),
    ).toBe(0);

    // The LZ economy: each record's released and paid_day are its releases; a 已到期 / 已成熟 one paid in full.
    for (const [table, release, key] of [
      ['pledge', 'pledge_release', 'pledge_id'],
      ['seed', 'seed_release', 'seed_id'],
    ] as const) {
      expect(
        await one(sql<{ n: number }>`select count(*) as n from ${sql.table(table)} p
          where released <> (select coalesce(sum(amount), 0) from ${sql.table(release)} r where r.${sql.ref(key)} = p.id)
             or paid_day <> coalesce((select max(day) from ${sql.table(release)} r where r.${sql.ref(key)} = p.id), start_day)
             or (select count(*) from ${sql.table(release)} r where r.${sql.ref(key)} = p.id) <> paid_day - start_day
             or (status = 2) <> (paid_day = end_day)`),
      ).toBe(0);
      expect(
        await one(sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where status = 1`),
      ).toBeGreaterThan(0);
      expect(
        await one(sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where status = 2`),
      ).toBeGreaterThan(0);
    }
    expect(
      await one(sql<{ n: number }>`select count(*) as n from pledge where status = 2 and released <> total_yield`),
    ).toBe(0);
    expect(
      await one(sql<{ n: number }>`select count(*) as n from seed where status = 2 and released <> total_energy`),
    ).toBe(0);
    // A bill per release above zero (质押收益 8, 种子释放 10), per pledge (质押锁定 7) and per returned principal (质押赎回 9).
    const billsOf = (type: number) => one(sql<{ n: number }>`select count(*) as n from bill where type = ${type}`);
    expect(await billsOf(7)).toBe(await one(sql<{ n: number }>`select count(*) as n from pledge`));
    expect(await billsOf(8)).toBe(
      await one(sql<{ n: number }>`select count(*) as n from pledge_release where amount > 0`),
    );
    expect(await billsOf(9)).toBe(
      await one(sql<{ n: number }>`select count(*) as n from pledge_release where principal > 0`),
    );
    expect(await billsOf(9)).toBe(await one(sql<{ n: number }>`select count(*) as n from pledge where status = 2`));
    expect(await billsOf(10)).toBe(
      await one(sql<{ n: number }>`select count(*) as n from seed_release where amount > 0`),
    );
    // A match: frozen (13), then dealt (two bills 14) or returned (15); 待付款, 待确认收款 and 申诉中 still frozen.
    expect(
      await one(sql<{ n: number }>`select count(*) as n from match_trade m
        where (select count(*) from bill b where b.ref_kind = 'match' and b.ref_id = m.id)
              <> case m.status when 3 then 3 when 4 then 2 else 1 end`),
    ).toBe(0);
    const statuses = (await sql<{ status: number }>`select distinct status from match_trade`.execute(h.db)).rows;
    expect(statuses.map((r) => Number(r.status)).sort()).toEqual(expect.arrayContaining([1, 3, 4, 5]));
    // An order: paid (11), and a cancelled one refunded (12); a SKU's stock + sales is its starting stock.
    expect(
      await one(sql<{ n: number }>`select count(*) as n from mall_order o
        where (select count(*) from bill b where b.ref_kind = 'order' and b.ref_id = o.id and b.type = 11) <> 1
           or (select count(*) from bill b where b.ref_kind = 'order' and b.ref_id = o.id and b.type = 12)
              <> case o.status when 4 then 1 else 0 end`),
    ).toBe(0);
    expect(
      await one(sql<{ n: number }>`select count(*) as n from product_sku s
        where stock + sales <> 1000000
           or sales <> (select coalesce(sum(quantity), 0) from mall_order o where o.sku_id = s.id and o.status <> 4)`),
    ).toBe(0);
    // Each order keeps its buyer as the members' generator made him.
    expect(
      await one(sql<{ n: number }>`select count(*) as n from mall_order o join member m on m.id = o.member_id
        where o.buyer_uid <> m.uid or o.buyer_phone <> m.phone or o.buyer_nickname <> m.nickname`),
    ).toBe(0);
    const orderStatuses = (await sql<{ status: number }>`select distinct status from mall_order`.execute(h.db)).rows;
    expect(orderStatuses.map((r) => Number(r.status)).sort()).toEqual([1, 2, 3, 4]);
    // The settled days have their runs; the day before the newest is left for the settle bench.
    const runs = await one(sql<{ n: number }>`select count(*) as n from settlement_run where status = 2`);
    expect(runs).toBeGreaterThan(0);
    expect(await one(sql<{ n: number }>`select max(day) as n from settlement_run`)).toBe(
      Math.floor((scale.end + 8 * 3_600_000) / 86_400_000) - 2,
    );
  } finally {
    await h.close();
  }
}

test('bench:data on SQLite: the ledger invariant and the records hold', async () => {
  const r = await buildDataSet('sqlite', scale, true);
  expect(r.violations).toBe(0);
  expect(r.counts.member).toBe(200);
  expect(r.counts.account).toBe(600);
  expect(r.counts.bill).toBeGreaterThanOrEqual(2_000);
  expect(r.counts.deposit).toBe(150);
  expect(r.counts.withdrawal).toBe(200);
  expect(r.economy).toBe(true);
  expect(r.counts.pledge).toBe(150);
  expect(r.counts.seed).toBe(150);
  expect(r.counts.match_trade).toBe(120);
  expect(r.counts.pledge_mode).toBe(5);
  expect(r.counts.product).toBe(20);
  expect(r.counts.mall_order).toBe(300);
  // About the releases asked for (the window is whole days).
  expect(r.counts.pledge_release + r.counts.seed_release).toBeGreaterThan(1_000);
  expect(r.counts.pledge_release + r.counts.seed_release).toBeLessThan(2_200);
  await checks(`sqlite:${process.env.BENCH_SQLITE}`);
}, 20_000);

const pgTest = process.env.TEST_DATABASE_URL ? test : test.skip;
pgTest(
  'bench:data on PostgreSQL: the same checks',
  async () => {
    try {
      const r = await buildDataSet('pg', scale, true);
      expect(r.violations).toBe(0);
      expect(r.counts.account).toBe(600);
      expect(r.counts.pledge).toBe(150);
      expect(r.counts.match_trade).toBe(120);
      await checks(process.env.TEST_DATABASE_URL!, process.env.BENCH_PG_SCHEMA);
    } finally {
      await dropPgSchema(process.env.TEST_DATABASE_URL!, process.env.BENCH_PG_SCHEMA!);
    }
  },
  20_000,
);

test('the generator is deterministic for a seed', async () => {
  const digest = async (seed: number) => {
    const h = createHash('sha256');
    const sink = {
      insert: async (table: string, _c: string[], rows: unknown[][]) => void h.update(table + JSON.stringify(rows)),
    };
    const rec = async (rows: object[]) => void h.update(JSON.stringify(rows));
    await generate({ ...scale, members: 50, bills: 500, deposits: 40, withdrawals: 40, pledges: 30, seed }, 'x', {
      zones: sink,
      members: sink,
      accounts: sink,
      bills: sink,
      deposits: rec,
      withdrawals: rec,
      transfers: rec,
      economy: sink,
    });
    return h.digest('hex');
  };
  const a = await digest(7);
  expect(await digest(7)).toBe(a);
  expect(await digest(8)).not.toBe(a);
});
