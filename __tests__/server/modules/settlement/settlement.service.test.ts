/**
 * The daily settlement job (issue 11) in one process, on SQLite or PostgreSQL (TEST_DATABASE_URL): the
 * sum of a record's releases is its terms exactly, a day settled twice changes nothing, missed days are
 * caught up in order, the day boundary is 00:00 Asia/Shanghai, a failed run is recorded and retried, a
 * day held by another process is left to it, and the batched ledger credit keeps every invariant.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { BillType } from '../../../../domain/bills';
import { pledgeTerms, seedTerms } from '../../../../domain/economy';
import { RATE_DECIMALS } from '../../../../domain/money';
import { loadConfig } from '../../../../server/config';
import type { Ctx } from '../../../../server/context';
import { asyncCommit, BULK_CHECKPOINT_PAGES, BULK_MMAP_BYTES, withBulkJobSettings } from '../../../../server/db/bulk';
import { dayOf, dayStart } from '../../../../server/db/dayBuckets';
import { createDb } from '../../../../server/db/dialect';
import {
  applyChange,
  applyCredits,
  BalanceCeiling,
  balancesOf,
  billStatViolations,
  ledgerViolations,
} from '../../../../server/modules/ledger/ledger.service';
import { lastRuns } from '../../../../server/modules/settlement/settlement.query';
import { settlementTick } from '../../../../server/modules/settlement/settlement.scheduler';
import { dueDays, settleDay, settleDue } from '../../../../server/modules/settlement/settlement.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMode, addPledge, addSeed, energy, expectConsistent, lz, richMember, snapshot } from './fixtures';

const MIN = 60_000;

let t: TestApp;
let ctx: Ctx;
beforeAll(async () => {
  t = await build();
  ctx = t.app.ctx;
});
afterAll(() => t.close());

/** Moves the test clock to `minutes` past the start of Asia/Shanghai day `day`. */
const at = (day: number, minutes = 10) => t.clock.set(dayStart(day) + minutes * MIN);
/**
 * A fresh day S for a test, after the previous test's days: the clock is set to it and day S−1 is
 * settled, which pays out every record an earlier test left active (all end within 30 days), so each
 * test sees only its own records and the latest run is S−1.
 */
let nextBase = dayOf(Date.UTC(2027, 0, 1));
async function freshDay(): Promise<number> {
  nextBase += 30;
  const S = nextBase;
  at(S, 1);
  expect((await settleDay(ctx, S - 1)).outcome).toBe('done');
  expect(await t.db.db.selectFrom('pledge').select('id').where('status', '=', 1).execute()).toEqual([]);
  expect(await t.db.db.selectFrom('seed').select('id').where('status', '=', 1).execute()).toEqual([]);
  return S;
}

async function pledgeRow(id: number) {
  return t.db.db
    .selectFrom('pledge')
    .select(['status', 'paid_day', 'end_day', 'finished_at'])
    .select((eb) => [
      eb.cast<string>('released', 'text').as('released'),
      eb.cast<string>('total_yield', 'text').as('total'),
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function releasesOf(table: 'pledge_release' | 'seed_release', id: number) {
  const col = table === 'pledge_release' ? 'pledge_id' : 'seed_id';
  const r = await sql<{ day: number; amount: string; principal?: string }>`
    select day, cast(amount as text) as amount${
      table === 'pledge_release' ? sql`, cast(principal as text) as principal` : sql``
    }
    from ${sql.table(table)} where ${sql.ref(col)} = ${id} order by day`.execute(t.db.db);
  return r.rows.map((x) => ({ ...x, day: Number(x.day) }));
}

describe('terms: the sum of a record’s releases over its whole life is its terms exactly', () => {
  it('odd amounts, rates and days: every yield, the principal once, status 已到期 / 已成熟 on the end day', async () => {
    const S = await freshDay();
    at(S, 600);
    const cases = [
      { days: 7, rate: '0.012345', amount: '1234.5677' },
      { days: 3, rate: '0.000001', amount: '0.0003' }, // daily yield rounds to 0: all of it is 0
      { days: 1, rate: '0.05', amount: '999.9999' },
      { days: 11, rate: '0.003333', amount: '777.7777' },
    ];
    const member = await richMember(ctx, '10000');
    const before = (await balancesOf(t.db.db, member)).LZ.available;
    const pledges: Array<{ id: number; days: number; amount: bigint; total: bigint }> = [];
    for (const c of cases) {
      const mode = await addMode(ctx, c.days, c.rate);
      const id = await addPledge(ctx, member, mode, c.amount, t.clock.now());
      const rate = BigInt(Math.round(Number(c.rate) * 10 ** RATE_DECIMALS));
      pledges.push({ id, days: c.days, amount: lz(c.amount), total: pledgeTerms(lz(c.amount), rate, c.days).total });
    }
    const seedCases = [
      { total: '10.01', days: 3 },
      { total: '0.07', days: 9 }, // daily 0, all on the end day
      { total: '123.45', days: 7 },
    ];
    const seeds: Array<{ id: number; days: number; total: bigint }> = [];
    for (const c of seedCases) {
      seeds.push({
        id: await addSeed(ctx, member, c.total, c.days, t.clock.now()),
        days: c.days,
        total: energy(c.total),
      });
    }
    expect(seedTerms(energy('0.07'), 9).daily).toBe(0n);

    for (let d = S + 1; d <= S + 11; d++) {
      at(d + 1, 10);
      const r = await settleDay(ctx, d);
      expect(r.outcome).toBe('done');
    }

    let paid = 0n;
    for (const p of pledges) {
      const rel = await releasesOf('pledge_release', p.id);
      expect(rel.map((x) => x.day)).toEqual(Array.from({ length: p.days }, (_, i) => S + 1 + i));
      expect(rel.reduce((s, x) => s + BigInt(x.amount), 0n)).toBe(p.total);
      expect(rel.map((x) => BigInt(x.principal!))).toEqual([...Array(p.days - 1).fill(0n), p.amount]);
      const row = await pledgeRow(p.id);
      expect({ status: row.status, released: BigInt(row.released), paid: row.paid_day }).toEqual({
        status: 2,
        released: p.total,
        paid: row.end_day,
      });
      expect(row.finished_at).not.toBeNull();
      paid += p.total;
    }
    expect((await balancesOf(t.db.db, member)).LZ.available).toBe(before + paid);
    for (const s of seeds) {
      const rel = await releasesOf('seed_release', s.id);
      expect(rel).toHaveLength(s.days);
      expect(rel.reduce((sum, x) => sum + BigInt(x.amount), 0n)).toBe(s.total);
      const row = await t.db.db
        .selectFrom('seed')
        .select(['status'])
        .select((eb) => eb.cast<string>('released', 'text').as('released'))
        .where('id', '=', s.id)
        .executeTakeFirstOrThrow();
      expect({ status: row.status, released: BigInt(row.released) }).toEqual({ status: 2, released: s.total });
    }
    expect((await balancesOf(t.db.db, member)).ENERGY.available).toBe(seeds.reduce((s, x) => s + x.total, 0n));
    // one bill per non-zero yield, one 质押赎回 per pledge, one 种子释放 per non-zero release
    const bills = await t.db.db
      .selectFrom('bill')
      .select(['type'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('member_id', '=', member)
      .where('type', 'in', [BillType.pledgeIncome, BillType.pledgeRedeem, BillType.seedRelease])
      .groupBy('type')
      .orderBy('type')
      .execute();
    const nonZero = async (table: 'pledge_release' | 'seed_release') =>
      Number(
        (
          await sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)} where member_id = ${member} and amount > 0`.execute(t.db.db)
        ).rows[0].n,
      );
    expect(bills.map((b) => [b.type, Number(b.n)])).toEqual([
      [BillType.pledgeIncome, await nonZero('pledge_release')],
      [BillType.pledgeRedeem, pledges.length],
      [BillType.seedRelease, await nonZero('seed_release')],
    ]);
    await expectConsistent(t.db.db);
  });
});

describe('exactly once', () => {
  it('the same day twice: the second run changes nothing (bills, balances, rows)', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const mode = await addMode(ctx, 5, '0.01');
    await addPledge(ctx, m, mode, '100.0001', t.clock.now());
    await addPledge(ctx, m, mode, '33.3333', t.clock.now());
    await addSeed(ctx, m, '50', 5, t.clock.now());
    at(S + 2);
    expect((await settleDay(ctx, S + 1)).outcome).toBe('done');
    const once = await snapshot(t.db.db);
    const run = await t.db.db
      .selectFrom('settlement_run')
      .selectAll()
      .where('day', '=', S + 1)
      .executeTakeFirstOrThrow();
    expect(run).toMatchObject({ status: 2, pledges: 2, seeds: 1 });

    t.clock.advance(MIN);
    expect((await settleDay(ctx, S + 1)).outcome).toBe('already');
    expect(await snapshot(t.db.db)).toEqual(once);
    expect(await settleDue(ctx, t.clock.now(), { settleAt: 0 })).toEqual([]);
    expect(await snapshot(t.db.db)).toEqual(once);

    // Even with the run's record lost, the records' paid day keeps the day from being paid again.
    await t.db.db
      .deleteFrom('settlement_run')
      .where('day', '=', S + 1)
      .execute();
    const again = await settleDay(ctx, S + 1);
    expect(again).toMatchObject({ outcome: 'done', pledges: 0, seeds: 0 });
    expect(await snapshot(t.db.db)).toEqual(once);
    await expectConsistent(t.db.db);
  });

  it('three missed days are caught up in order, each paid once', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const mode = await addMode(ctx, 10, '0.002');
    const p = await addPledge(ctx, m, mode, '500', t.clock.now());
    const s = await addSeed(ctx, m, '9.99', 10, t.clock.now());
    at(S + 1, 30);
    expect((await settleDue(ctx, t.clock.now())).map((r) => [r.outcome, r.pledges])).toEqual([['done', 0]]);
    at(S + 4, 30); // down since S+1 00:30: S+1, S+2 and S+3 are due
    expect(await dueDays(ctx, t.clock.now())).toEqual([S + 1, S + 2, S + 3]);
    const results = await settleDue(ctx, t.clock.now());
    expect(results.map((r) => [r.day, r.outcome, r.pledges, r.seeds])).toEqual(
      [S + 1, S + 2, S + 3].map((d) => [new Date(d * 86_400_000).toISOString().slice(0, 10), 'done', 1, 1]),
    );
    expect((await releasesOf('pledge_release', p)).map((r) => r.day)).toEqual([S + 1, S + 2, S + 3]);
    expect((await releasesOf('seed_release', s)).map((r) => r.day)).toEqual([S + 1, S + 2, S + 3]);
    const runs = await lastRuns(t.db.db, 3, t.clock.now());
    expect(runs.map((r) => [r.status, r.statusText])).toEqual([
      [2, '已完成'],
      [2, '已完成'],
      [2, '已完成'],
    ]);
    // settled in order: each run started after the one before it finished
    const rows = await t.db.db
      .selectFrom('settlement_run')
      .select(['day', 'started_at', 'finished_at'])
      .where('day', '>', S)
      .orderBy('day')
      .execute();
    for (let i = 1; i < rows.length; i++)
      expect(Number(rows[i].started_at)).toBeGreaterThanOrEqual(Number(rows[i - 1].finished_at));
    expect(runs[0]).toMatchObject({ pledges: 1, pledgeYield: '1', pledgePrincipal: '0', seeds: 1, seedEnergy: '0.99' });
    expect(await settleDue(ctx, t.clock.now())).toEqual([]);
    await expectConsistent(t.db.db);
  });

  it('a day run out of order pays the days a record missed, never twice', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const mode = await addMode(ctx, 4, '0.01');
    const p = await addPledge(ctx, m, mode, '100', t.clock.now());
    at(S + 5);
    expect((await settleDay(ctx, S + 2)).pledges).toBe(1);
    expect((await releasesOf('pledge_release', p)).map((r) => r.day)).toEqual([S + 1, S + 2]);
    expect((await settleDay(ctx, S + 1)).pledges).toBe(0);
    expect((await settleDay(ctx, S + 4)).pledges).toBe(1);
    expect((await releasesOf('pledge_release', p)).map((r) => [r.day, r.amount, r.principal])).toEqual([
      [S + 1, '10000', '0'],
      [S + 2, '10000', '0'],
      [S + 3, '10000', '0'],
      [S + 4, '10000', '1000000'],
    ]);
    expect((await pledgeRow(p)).status).toBe(2);
    await expectConsistent(t.db.db);
  });
});

describe('the day boundary is 00:00 Asia/Shanghai', () => {
  it('a pledge made at 23:59:59 and one at 00:00:00 belong to different days', async () => {
    const S = await freshDay();
    const m = await richMember(ctx);
    const mode = await addMode(ctx, 3, '0.01');
    t.clock.set(dayStart(S) - 1000); // 23:59:59 Shanghai (15:59:59 UTC)
    const late = await addPledge(ctx, m, mode, '100', t.clock.now());
    t.clock.set(dayStart(S)); // 00:00:00 Shanghai (16:00:00 UTC the day before)
    const early = await addPledge(ctx, m, mode, '100', t.clock.now());
    expect(new Date(dayStart(S)).toISOString().slice(11, 19)).toBe('16:00:00');
    at(S + 2);
    expect((await settleDay(ctx, S)).pledges).toBe(1);
    expect((await releasesOf('pledge_release', late)).map((r) => r.day)).toEqual([S]);
    expect(await releasesOf('pledge_release', early)).toEqual([]);
    expect((await settleDay(ctx, S + 1)).pledges).toBe(2);
    expect((await releasesOf('pledge_release', early)).map((r) => r.day)).toEqual([S + 1]);
  });

  it('with SETTLE_AT 00:05 a tick at 00:04 does not settle yesterday yet; at 00:05 it does', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const p = await addPledge(ctx, m, await addMode(ctx, 3, '0.01'), '100', t.clock.now());
    expect(ctx.config.settleAt).toBe(5);
    at(S + 1, 4);
    expect(await dueDays(ctx, t.clock.now())).toEqual([]);
    at(S + 1, 5);
    expect(await dueDays(ctx, t.clock.now())).toEqual([S]);
    expect((await settleDue(ctx, t.clock.now())).map((r) => r.outcome)).toEqual(['done']);
    expect(await releasesOf('pledge_release', p)).toEqual([]);
    at(S + 2, 4);
    expect(await settleDue(ctx, t.clock.now())).toEqual([]);
    expect(await releasesOf('pledge_release', p)).toEqual([]);
    at(S + 2, 5);
    expect((await settleDue(ctx, t.clock.now())).map((r) => [r.outcome, r.pledges])).toEqual([['done', 1]]);
    expect((await releasesOf('pledge_release', p)).map((r) => r.day)).toEqual([S + 1]);
    // a day that is not over cannot be settled by hand either
    await expect(settleDay(ctx, S + 2)).rejects.toThrow('只能结算已经结束的日期');
  });
});

describe('failures and other processes', () => {
  it('a failed run is recorded with its error, shown as the last run, and retried', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const mode = await addMode(ctx, 5, '0.01');
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await addPledge(ctx, m, mode, '10', t.clock.now()));
    at(S + 2, 30);
    expect((await settleDay(ctx, S)).pledges).toBe(0);
    const before = await snapshot(t.db.db);
    // Corruption: a release of S+1 already there for the third pledge (as if written by hand).
    await t.db.db
      .insertInto('pledge_release')
      .values({ pledge_id: ids[2], member_id: m, day: S + 1, amount: 1n, created_at: t.clock.now() })
      .execute();
    const failed = await settleDay(ctx, S + 1, { batchSize: 2 });
    expect(failed.outcome).toBe('failed');
    expect(failed.error).toBeTruthy();
    const [run] = await lastRuns(t.db.db, 1, t.clock.now());
    expect(run).toMatchObject({ status: 3, statusText: '失败', pledges: 2 }); // the first batch committed
    expect(run.error).toBe(failed.error);
    expect(run.finishedAt).not.toBeNull();
    // the next tick waits RETRY_AFTER before trying again
    expect(await settleDue(ctx, t.clock.now(), { retryAfterMs: 5 * MIN })).toEqual([]);

    await t.db.db.deleteFrom('pledge_release').where('pledge_id', '=', ids[2]).execute();
    t.clock.advance(6 * MIN);
    const retried = await settleDue(ctx, t.clock.now(), { retryAfterMs: 5 * MIN });
    expect(retried.map((r) => [r.outcome, r.pledges])).toEqual([['done', 2]]);
    const after = await snapshot(t.db.db);
    expect(Number((after.pledgeReleases as { n: number }).n) - Number((before.pledgeReleases as { n: number }).n)).toBe(
      4,
    );
    for (const id of ids) expect((await releasesOf('pledge_release', id)).map((r) => r.day)).toEqual([S + 1]);
    expect(await lastRuns(t.db.db, 1, t.clock.now())).toMatchObject([{ status: 2, pledges: 4, error: '' }]);
    await expectConsistent(t.db.db);
  });

  it('a day another process holds is left to it; once its lease runs out the day is taken over', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const p = await addPledge(ctx, m, await addMode(ctx, 2, '0.01'), '100', t.clock.now());
    at(S + 2);
    // another process started S+1 and holds it for a minute
    await t.db.db
      .insertInto('settlement_run')
      .values({
        day: S + 1,
        status: 1,
        owner: 'other-host:1:abc',
        lease_until: t.clock.now() + MIN,
        started_at: t.clock.now(),
      })
      .execute();
    expect((await settleDay(ctx, S + 1)).outcome).toBe('busy');
    expect(await releasesOf('pledge_release', p)).toEqual([]);
    expect((await lastRuns(t.db.db, 1, t.clock.now()))[0]).toMatchObject({ status: 1, statusText: '进行中' });
    t.clock.advance(MIN + 1);
    expect((await lastRuns(t.db.db, 1, t.clock.now()))[0]).toMatchObject({ status: 1, statusText: '未完成（将重试）' });
    expect((await settleDay(ctx, S + 1)).outcome).toBe('done');
    expect((await releasesOf('pledge_release', p)).map((r) => r.day)).toEqual([S + 1]);
    await expectConsistent(t.db.db);
  });
});

describe('applyCredits: many credits in a few statements', () => {
  it('each bill carries the balance after it, in order; bill_stat counts them', async () => {
    at(await freshDay());
    const a = await richMember(ctx, '5');
    const b = await richMember(ctx, '0');
    await t.db.db.transaction().execute((trx) =>
      applyCredits(
        trx,
        [
          { memberId: a, asset: 'LZ', amount: lz('1'), type: BillType.pledgeIncome, ref: { kind: 'pledge', id: 1 } },
          { memberId: b, asset: 'LZ', amount: lz('2'), type: BillType.pledgeIncome },
          { memberId: a, asset: 'LZ', amount: lz('10'), type: BillType.pledgeRedeem },
          { memberId: a, asset: 'ENERGY', amount: energy('0.5'), type: BillType.seedRelease },
          { memberId: a, asset: 'LZ', amount: lz('0.0001'), type: BillType.pledgeIncome },
        ],
        t.clock.now(),
      ),
    );
    const bills = await t.db.db
      .selectFrom('bill')
      .select(['member_id', 'asset', 'type'])
      .select((eb) => [
        eb.cast<string>('change', 'text').as('c'),
        eb.cast<string>('available_after', 'text').as('after'),
      ])
      .where('member_id', 'in', [a, b])
      .where('type', '<>', BillType.adminAdjust)
      .orderBy('id')
      .execute();
    expect(bills.map((x) => [Number(x.member_id), x.asset, x.type, x.c, x.after])).toEqual([
      [a, 'LZ', 8, '10000', '60000'],
      [b, 'LZ', 8, '20000', '20000'],
      [a, 'LZ', 9, '100000', '160000'],
      [a, 'ENERGY', 10, '50', '50'],
      [a, 'LZ', 8, '1', '160001'],
    ]);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
  });

  it('a credit past the ceiling refuses the whole batch', async () => {
    const a = await richMember(ctx, '1');
    const b = await richMember(ctx, '1');
    const before = await snapshot(t.db.db);
    await expect(
      t.db.db.transaction().execute((trx) =>
        applyCredits(
          trx,
          [
            { memberId: a, asset: 'LZ', amount: lz('1'), type: BillType.pledgeIncome },
            { memberId: b, asset: 'LZ', amount: 10n ** 14n, type: BillType.pledgeIncome },
          ],
          t.clock.now(),
        ),
      ),
    ).rejects.toBeInstanceOf(BalanceCeiling);
    expect(await snapshot(t.db.db)).toEqual(before);
  });

  it('a bill is never written for a member without an account (the ledger keeps bill.member_id, not a key)', async () => {
    const ghost = 999_999_999;
    const bills = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from bill`.execute(t.db.db)).rows[0]?.n);
    const n = await bills();
    const credit = { memberId: ghost, asset: 'LZ' as const, amount: lz('1'), type: BillType.pledgeIncome };
    await expect(t.db.db.transaction().execute((trx) => applyCredits(trx, [credit], t.clock.now()))).rejects.toThrow(
      `no LZ account for member ${ghost}`,
    );
    await expect(
      t.db.db
        .transaction()
        .execute((trx) =>
          applyChange(
            trx,
            { memberId: ghost, asset: 'LZ', available: lz('1'), type: BillType.pledgeIncome },
            t.clock.now(),
          ),
        ),
    ).rejects.toThrow(`no LZ account for member ${ghost}`);
    expect(await bills()).toBe(n);
  });
});

describe('configuration and the server’s tick', () => {
  it('SETTLE_ENABLED, SETTLE_AT, SETTLE_BATCH and SETTLE_LEASE_SEC are read and checked', () => {
    expect(loadConfig({}, '/tmp/lz-test')).toMatchObject({
      settleEnabled: true,
      settleAt: 5,
      settleBatch: 1000,
      settleLeaseSeconds: 60,
    });
    expect(loadConfig({ SETTLE_AT: '01:30', SETTLE_ENABLED: 'false' }, '/tmp/lz-test')).toMatchObject({
      settleAt: 90,
      settleEnabled: false,
    });
    expect(() => loadConfig({ SETTLE_AT: '24:00' }, '/tmp/lz-test')).toThrow(/SETTLE_AT/);
    expect(() => loadConfig({ SETTLE_BATCH: '0' }, '/tmp/lz-test')).toThrow(/SETTLE_BATCH/);
  });

  it('a tick settles every due day (and cancels expired matches)', async () => {
    const S = await freshDay();
    at(S);
    const m = await richMember(ctx);
    const p = await addPledge(ctx, m, await addMode(ctx, 3, '0.01'), '100', t.clock.now());
    at(S + 2, 5);
    await settlementTick(ctx);
    expect((await releasesOf('pledge_release', p)).map((r) => r.day)).toEqual([S + 1]);
    expect((await lastRuns(t.db.db, 2, t.clock.now())).map((r) => [r.status, r.pledges])).toEqual([
      [2, 1],
      [2, 0],
    ]);
  });
});

describe('the job’s durability settings stay inside the job', () => {
  (dbKind === 'postgres' ? it : it.skip)(
    'PostgreSQL: a batch commits asynchronously, the connection’s setting is untouched after',
    async () => {
      const show = async (db: typeof t.db.db | Parameters<typeof asyncCommit>[0]) =>
        (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]?.synchronous_commit;
      const inside = await t.db.db.transaction().execute(async (trx) => {
        await asyncCommit(trx);
        return show(trx);
      });
      expect(inside).toBe('off');
      expect(await show(t.db.db)).toBe('on');
    },
  );

  (dbKind === 'sqlite' ? it : it.skip)(
    'SQLite: checkpoints spaced out and reads memory-mapped while the job runs, both restored after',
    async () => {
      // A database file (an in-memory database has no WAL and no map).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bulk-'));
      const file = createDb(`sqlite:${path.join(dir, 'job.db')}`);
      try {
        const setting = async (name: string) =>
          Number(Object.values((await sql.raw(`pragma ${name}`).execute(file.db)).rows[0] ?? {})[0]);
        const both = async () => [await setting('wal_autocheckpoint'), await setting('mmap_size')];
        const before = await both();
        expect(before).toEqual([1000, 0]);
        expect(await withBulkJobSettings(file.db, both)).toEqual([BULK_CHECKPOINT_PAGES, BULK_MMAP_BYTES]);
        expect(await both()).toEqual(before);
        await expect(withBulkJobSettings(file.db, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
        expect(await both()).toEqual(before);
      } finally {
        await file.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
