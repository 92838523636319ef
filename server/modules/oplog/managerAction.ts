/**
 * A manager's change, the one way: `managerAction` runs it in one transaction and writes its op-log row
 * from what the change returns, so the row exists exactly when the change committed (a refusal thrown
 * anywhere rolls both back); `runBatch` runs one such action per id and answers per id.
 *
 * It lives beside the op log (not in server/http) because it is the op log's writer: services call it,
 * routes never do, and nothing here knows about requests.
 */
import { availableParallelism } from 'node:os';
import type { Transaction } from 'kysely';
import type { Actor, Ctx } from '../../context';
import { CounterMoves } from '../../db/counterMoves';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import { writeOpLog, type OpLogEntry } from './oplog.repository';

export interface ActionScope {
  trx: Transaction<Database>;
  /** The action's time: the op-log row's and every row the change stamps. */
  now: number;
  /** The transaction's counter moves, for the repository writes it calls; applied after the op-log row. */
  counts: CounterMoves;
}

/** What a change returns: the caller's answer and the op-log row (who, IP and time come from the action). */
export interface Logged<T> {
  result: T;
  log: OpLogEntry;
}

/**
 * Runs `change` in one transaction, then writes its op-log row as `actor` at `now`, then applies the
 * counter moves its writes queued: the hot counter rows last, held for the commit only
 * (server/db/counterMoves.ts). `now` defaults to the clock read once, before the transaction.
 */
export async function managerAction<T>(
  ctx: Ctx,
  actor: Actor,
  change: (scope: ActionScope) => Promise<Logged<T>>,
  now: number = ctx.clock.now(),
): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    const counts = new CounterMoves();
    const { result, log } = await change({ trx, now, counts });
    await writeOpLog(trx, actor, log, now);
    await counts.apply();
    return result;
  });
}

/** An edit's changes for its summary: `：a，b` when there are any, `none` otherwise. */
export const changeList = (changes: Array<string | false>, none = ''): string => {
  const made = changes.filter((c): c is string => !!c);
  return made.length ? `：${made.join('，')}` : none;
};

/** `label old→new` when the shown value changed, else false (for `changeList`). */
export const changed = (label: string, from: string, to: string): string | false =>
  from !== to && `${label} ${from}→${to}`;

/**
 * How many ids of a batch run at once. On PostgreSQL several, so that one record's commit (its WAL flush)
 * overlaps the next one's work — but no more than the machine has cores: past that the backends only
 * contend for CPU and for the same index pages (measured on 2 cores, 1,000 approvals in one statement
 * each: ~1.2 s at 2 at once, 1.3–1.5 s at 4, 1.5–1.6 s at 8; docs/performance.md). SQLite has one
 * writer, so one at a time.
 */
export const BATCH_PARALLEL = { postgres: Math.min(8, Math.max(2, availableParallelism())), sqlite: 1 } as const;

export interface BatchResult {
  succeeded: number[];
  failed: Array<{ id: number; msg: string }>;
}

/**
 * Runs `one(id)` for each distinct id — each its own action, so one refusal never undoes another's
 * success — and answers per id, in the order the ids were given: an AppError's message for a refused id.
 * Any other error stops the batch (ids not started yet are not run) and is thrown once the running ones
 * settle, for the error plugin to log and answer generically.
 */
export async function runBatch(ctx: Ctx, ids: number[], one: (id: number) => Promise<unknown>): Promise<BatchResult> {
  const distinct = [...new Set(ids)];
  const outcome: Array<{ msg: string } | null> = new Array(distinct.length);
  let unexpected: unknown;
  let next = 0;
  const worker = async () => {
    while (next < distinct.length && unexpected === undefined) {
      const i = next++;
      try {
        await one(distinct[i]);
        outcome[i] = null;
      } catch (err) {
        if (err instanceof AppError) outcome[i] = { msg: err.message };
        else unexpected ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_PARALLEL[ctx.kind], distinct.length) }, worker));
  if (unexpected !== undefined) throw unexpected;
  const result: BatchResult = { succeeded: [], failed: [] };
  distinct.forEach((id, i) => {
    const o = outcome[i];
    if (o) result.failed.push({ id, msg: o.msg });
    else result.succeeded.push(id);
  });
  return result;
}
