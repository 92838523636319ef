/**
 * A transaction's counter moves (./counters), queued by the repositories that write counted rows and
 * applied once, as the transaction's last writes.
 */
import type { Kysely, Transaction } from 'kysely';
import { CounterDeltas, type Counter, type CounterKey, type Db } from './counters';
import type { Database } from './schema';

/**
 * The counter moves of one transaction. A repository's write that adds or moves a counted row (a
 * deposit's insert or settlement, a withdrawal's move…) takes this queue and queues its own move, so no
 * caller can forget the count; the queue is applied once, as the transaction's last writes, so the hot
 * counter rows are held for the commit only. `countedTransaction` (or a manager action, after its
 * op-log row) applies it.
 */
export class CounterMoves {
  private readonly counters = new Map<string, { db: Db; deltas: CounterDeltas<string, string> }>();
  private readonly queued: Array<() => Promise<unknown>> = [];

  /**
   * Queues `count` rows (default 1) of `c` moving from key `from` (null: new rows) to `to` (null: rows
   * removed), merged with the transaction's other moves of the same counter and key.
   */
  move<K extends string, S extends string>(
    db: Db,
    c: Counter<K, S>,
    from: CounterKey<K> | null,
    to: CounterKey<K> | null,
    values: Readonly<Record<S, bigint>>,
    count = 1n,
  ): void {
    let entry = this.counters.get(c.table);
    if (!entry) {
      entry = { db, deltas: new CounterDeltas(c) as unknown as CounterDeltas<string, string> };
      this.counters.set(c.table, entry);
    }
    (entry.deltas as unknown as CounterDeltas<K, S>).move(from, to, values, count);
  }

  /** Queues any other move (`countInDayStat`) for the end of the transaction. */
  add(move: () => Promise<unknown>): void {
    this.queued.push(move);
  }

  /**
   * Applies the merged counter moves, counter by counter in table-name order and keys ascending (so two
   * transactions take counter rows in one order), then the other queued moves in the order queued; each once.
   */
  async apply(): Promise<void> {
    const tables = [...this.counters.keys()].sort();
    for (const t of tables) {
      const { db, deltas } = this.counters.get(t)!;
      await deltas.apply(db);
    }
    this.counters.clear();
    for (const move of this.queued.splice(0)) await move();
  }
}

/**
 * Queues moves on the caller's `counts` (applied by the caller with its other moves), or, without one,
 * on a queue of their own applied at once.
 */
export async function queueOrApply(counts: CounterMoves | undefined, queue: (counts: CounterMoves) => void) {
  if (counts) return queue(counts);
  const own = new CounterMoves();
  queue(own);
  await own.apply();
}

/** Runs `work` in a transaction whose counter moves are applied at its end (see `CounterMoves`). */
export function countedTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>, counts: CounterMoves) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const counts = new CounterMoves();
    const result = await work(trx, counts);
    await counts.apply();
    return result;
  });
}
