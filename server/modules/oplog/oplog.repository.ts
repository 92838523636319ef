/** The operation log: one row per successful manager change, written inside that change's transaction. */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Actor } from '../../context';
import type { Database } from '../../db/schema';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';

export interface OpLogEntry {
  /** The permission code of the action (e.g. 'withdraw:audit'). */
  code: string;
  /** What was changed, e.g. 'withdraw#12' or 'manager#3 (alice)'. */
  target: string;
  /** A readable Chinese summary, e.g. '审核通过提现 #12'. */
  summary: string;
}

export async function writeOpLog(
  trx: Transaction<Database> | Kysely<Database>,
  actor: Actor,
  entry: OpLogEntry,
  now: number,
): Promise<void> {
  await trx
    .insertInto('op_log')
    .values({ ...opLogValues(actor, entry), created_at: now })
    .execute();
}

/** The op-log row's columns but its time, cut to their lengths. */
const opLogValues = (actor: Actor, entry: OpLogEntry) => ({
  manager_id: actor.managerId,
  username: actor.username,
  permission_code: entry.code,
  target: entry.target.slice(0, 200),
  summary: entry.summary.slice(0, 1000),
  ip: actor.ip.slice(0, 64),
});

/** PostgreSQL: the body of a data-modifying CTE writing the op-log row once per row of the CTE `source`. */
export function opLogInsertFrom(source: string, actor: Actor, entry: OpLogEntry, now: number): RawBuilder<unknown> {
  const v = opLogValues(actor, entry);
  const text = (x: string) => sql`cast(${x} as text)`;
  return sql`insert into op_log (manager_id, username, permission_code, target, summary, ip, created_at)
    select cast(${v.manager_id} as bigint), ${text(v.username)}, ${text(v.permission_code)}, ${text(v.target)},
      ${text(v.summary)}, ${text(v.ip)}, cast(${now} as bigint)
    from ${sql.table(source)} returning id`;
}

export interface OpLogFilter {
  username?: string;
  code?: string;
  start?: number;
  end?: number;
}

/** A page of the log, newest first unless `order` is 'asc', with the total for the filters. */
export async function findOpLogs(
  db: Kysely<Database>,
  f: OpLogFilter,
  page: Omit<KeysetPageRequest, 'order'> & { order?: 'asc' | 'desc' },
) {
  let q = db.selectFrom('op_log');
  if (f.username) q = q.where('username', '=', f.username);
  if (f.code) q = q.where('permission_code', '=', f.code);
  if (f.start !== undefined) q = q.where('created_at', '>=', f.start);
  if (f.end !== undefined) q = q.where('created_at', '<=', f.end);
  const [rows, count] = await Promise.all([
    keysetSlice(
      q.select(['id', 'manager_id', 'username', 'permission_code', 'target', 'summary', 'ip', 'created_at']),
      { ...page, order: page.order ?? 'desc' },
      { sort: 'created_at', id: 'id', afterLookup: false },
    ).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
