/**
 * CounterMoves merges a transaction's moves of one counter per key: a batch moving many rows between the
 * same keys writes each counter row once, with the net change, and moves that cancel out write nothing;
 * many keys are written in two sweeps (each key's row made or locked in ascending key order, then the
 * deltas added), 500 keys per statement.
 */
import { sql } from 'kysely';
import { CounterMoves } from '../../../server/db/counterMoves';
import { counter } from '../../../server/db/counters';
import { build, dbKind, type TestApp } from '../helpers';

const STAT = counter({ table: 'deposit_stat', source: 'deposit', keys: ['status'], sums: { amount_sum: 'amount' } });

describe(`counter moves merged per key (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(() => t.close());

  const rows = async () =>
    (
      await sql<{ status: number; n: number; s: string }>`select status, n, cast(amount_sum as text) as s
        from deposit_stat order by status`.execute(t.db.db)
    ).rows.map((r) => [Number(r.status), Number(r.n), r.s]);

  /** The statements the queued moves send when applied, counted by a query plugin on the transaction. */
  async function counted(work: (counts: CounterMoves, db: typeof t.db.db) => void): Promise<number> {
    let writes = 0;
    await t.db.db.transaction().execute(async (trx) => {
      const watched = trx.withPlugin({
        transformQuery: (args) => {
          writes++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      const counts = new CounterMoves();
      work(counts, watched as unknown as typeof t.db.db);
      await counts.apply();
    });
    return writes;
  }

  it('writes one row per key with the net change of many moves', async () => {
    const n = await counted((counts, db) => {
      for (let i = 0; i < 500; i++) counts.move(db, STAT, null, { status: 0 }, { amount_sum: 3n });
      for (let i = 0; i < 200; i++) counts.move(db, STAT, { status: 0 }, { status: 1 }, { amount_sum: 3n });
    });
    expect(n).toBe(2);
    expect(await rows()).toEqual([
      [0, 300, '900'],
      [1, 200, '600'],
    ]);
  });

  it('writes many keys in a few statements: rows taken in key order, then the deltas, 500 keys at a time', async () => {
    await counted((counts, db) => counts.move(db, STAT, null, { status: 5 }, { amount_sum: 5000n }, 1300n));
    // 1,206 keys: three statements make or lock their rows in key order, three add the deltas.
    const n = await counted((counts, db) => {
      for (let s = 0; s < 5; s++) counts.move(db, STAT, null, { status: s }, { amount_sum: BigInt(s) });
      for (let s = 6; s < 1206; s++) counts.move(db, STAT, { status: 5 }, { status: s }, { amount_sum: 1n });
      counts.move(db, STAT, { status: 5 }, null, { amount_sum: 10n }, 2n);
    });
    expect(n).toBe(6);
    const all = await rows();
    expect(all).toHaveLength(1206);
    expect(all.slice(0, 7)).toEqual([
      [0, 1, '0'],
      [1, 1, '1'],
      [2, 1, '2'],
      [3, 1, '3'],
      [4, 1, '4'],
      [5, 98, '3790'],
      [6, 1, '1'],
    ]);
  });

  it('writes nothing for moves that cancel out, and a net fall updates the existing row', async () => {
    await counted((counts, db) => counts.move(db, STAT, null, { status: 2 }, { amount_sum: 10n }, 5n));
    const n = await counted((counts, db) => {
      counts.move(db, STAT, { status: 2 }, { status: 1 }, { amount_sum: 2n });
      counts.move(db, STAT, { status: 1 }, { status: 2 }, { amount_sum: 2n });
      counts.move(db, STAT, { status: 2 }, null, { amount_sum: 4n });
    });
    expect(n).toBe(1);
    expect(await rows()).toEqual([[2, 4, '6']]);
  });

  it('refuses a net fall of a key that has no counter row, one key or among many, rolling the transaction back', async () => {
    await expect(
      counted((counts, db) => {
        for (let s = 0; s < 20; s++) counts.move(db, STAT, null, { status: s }, { amount_sum: 1n });
        counts.move(db, STAT, { status: 30 }, null, { amount_sum: 1n });
      }),
    ).rejects.toThrow('deposit_stat: a fall below zero among 21 keys');
    expect(await rows()).toEqual([]);
    await expect(
      counted((counts, db) => counts.move(db, STAT, { status: 1 }, { status: 2 }, { amount_sum: 1n })),
    ).rejects.toThrow('deposit_stat has no row for status 1');
    expect(await rows()).toEqual([]);
  });

  (dbKind === 'postgres' ? it : it.skip)(
    'PostgreSQL: a many-key writer and a one-key move over the same keys do not deadlock',
    async () => {
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      await counted((counts, db) => counts.move(db, STAT, null, { status: 5 }, { amount_sum: 10n }, 10n));
      // The move 5 → 1 makes key 1 (new) and pauses before taking key 5; meanwhile a writer of keys
      // 0–10 runs. Taking existing rows before making new lower ones, it held 5 and waited for 1:
      // deadlock. Taking every row in key order, it waits at 1 and the move finishes first.
      let paused = false;
      const move = t.db.db.transaction().execute(async (trx) => {
        const slow = trx.withPlugin({
          transformQuery: (args) => args.node,
          transformResult: async (args) => {
            if (!paused) {
              paused = true;
              await sleep(500);
            }
            return args.result;
          },
        });
        const counts = new CounterMoves();
        counts.move(slow, STAT, { status: 5 }, { status: 1 }, { amount_sum: 1n });
        await counts.apply();
      });
      await sleep(150);
      const many = counted((counts, db) => {
        for (let s = 0; s <= 10; s++) counts.move(db, STAT, null, { status: s }, { amount_sum: 1n });
      });
      const results = await Promise.allSettled([move, many]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
      expect((await rows()).filter(([s]) => s === 1 || s === 5)).toEqual([
        [1, 2, '2'],
        [5, 10, '10'],
      ]);
    },
  );
});
