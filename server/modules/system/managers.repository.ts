/** All SQL on managers. Plain functions taking `db` or `trx` first; rows never leave the service. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { forUpdate } from '../../db/dialect';
import { likePrefix } from '../../db/sql';
import { ShapedQuery } from '../../db/shapes';

type Db = Kysely<Database> | Transaction<Database>;

export interface ManagerFilter {
  username?: string;
  roleId?: number;
  status?: number;
}

/** Never-logged-in managers sort as the oldest login on both databases (their NULL order differs). */
const SORT_COLUMNS = {
  id: sql.ref('m.id'),
  createdAt: sql.ref('m.created_at'),
  lastLoginAt: sql`coalesce(m.last_login_at, 0)`,
} as const;
export type ManagerSort = keyof typeof SORT_COLUMNS;

/** Which filters a manager list query has: its shape (ShapedQuery); the values are bound apart. */
interface ManagerListShape {
  username: boolean;
  roleId: boolean;
  status: boolean;
}
/** The values a manager list query binds: the username's LIKE pattern, made here from the filter. */
interface ManagerListValues {
  usernameLike?: string;
  roleId?: number;
  status?: number;
  offset?: number;
  limit?: number;
}

function filtered(db: Db, s: ManagerListShape, v: ManagerListValues) {
  let q = db.selectFrom('manager as m').innerJoin('role as r', 'r.id', 'm.role_id');
  // Contains, case-insensitive on both databases; wildcards in the input match literally.
  if (s.username) q = q.where(sql<boolean>`lower(m.username) like ${v.usernameLike} escape '\\'`);
  if (s.roleId) q = q.where('m.role_id', '=', v.roleId!);
  if (s.status) q = q.where('m.status', '=', v.status!);
  return q;
}

const filterKey = (s: ManagerListShape) => `${+s.username}${+s.roleId}${+s.status}`;

const managerPage = new ShapedQuery(
  (s: ManagerListShape & { sort: ManagerSort; order: 'asc' | 'desc' }) => `${filterKey(s)} ${s.sort} ${s.order}`,
  (db, s, v: ManagerListValues) =>
    keysetSlice(
      filtered(db as Db, s, v).select([
        'm.id',
        'm.username',
        'm.role_id',
        'r.name as role_name',
        'r.is_super',
        'm.status',
        'm.last_login_at',
        'm.last_login_ip',
        'm.totp_on',
        'm.created_at',
        'm.updated_at',
        'm.version',
      ]),
      { offset: v.offset!, limit: v.limit!, order: s.order },
      { sort: SORT_COLUMNS[s.sort], id: 'm.id', afterLookup: false },
    ),
);

const managerCount = new ShapedQuery(filterKey, (db, s: ManagerListShape, v: ManagerListValues) =>
  filtered(db as Db, s, v).select((eb) => eb.fn.countAll<number>().as('n')),
);

export async function findManagers(
  db: Db,
  f: ManagerFilter,
  page: Omit<KeysetPageRequest, 'keyset'> & { sort: ManagerSort },
) {
  const shape = { username: !!f.username, roleId: f.roleId !== undefined, status: f.status !== undefined };
  const values: ManagerListValues = {
    usernameLike: f.username ? `%${likePrefix(f.username.toLowerCase())}` : undefined,
    roleId: f.roleId,
    status: f.status,
  };
  const [rows, count] = await Promise.all([
    managerPage.execute(
      db,
      { ...shape, sort: page.sort, order: page.order },
      { ...values, offset: page.offset, limit: page.limit },
    ),
    managerCount.executeTakeFirstOrThrow(db, shape, values),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findManagerById(db: Db, id: number, lock = false) {
  const q = db
    .selectFrom('manager as m')
    .innerJoin('role as r', 'r.id', 'm.role_id')
    .select([
      'm.id',
      'm.username',
      'm.password_hash',
      'm.role_id',
      'r.name as role_name',
      'r.is_super',
      'm.status',
      'm.version',
    ])
    .where('m.id', '=', id);
  return lock ? forUpdate(q, db as unknown as Kysely<unknown>).executeTakeFirst() : q.executeTakeFirst();
}

/** Another manager already uses this name (case-insensitive, so 'Admin' cannot sit next to 'admin'). */
export async function usernameTaken(db: Db, username: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('manager')
    .select('id')
    .where(sql<boolean>`lower(username) = ${username.toLowerCase()}`);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/** Enabled managers of the super role other than `exceptId`. */
export async function countOtherEnabledSupers(db: Db, exceptId: number): Promise<number> {
  const row = await db
    .selectFrom('manager as m')
    .innerJoin('role as r', 'r.id', 'm.role_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.is_super', '=', 1)
    .where('m.status', '=', 1)
    .where('m.id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertManager(
  db: Db,
  v: { username: string; passwordHash: string; roleId: number; status: number; now: number },
): Promise<number> {
  const row = await db
    .insertInto('manager')
    .values({
      username: v.username,
      password_hash: v.passwordHash,
      role_id: v.roleId,
      status: v.status,
      created_at: v.now,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Updates only when the row is still at `version`; returns whether it was. */
export async function updateManager(
  db: Db,
  id: number,
  version: number,
  v: { username: string; passwordHash?: string; roleId: number; status: number; now: number },
): Promise<boolean> {
  const res = await db
    .updateTable('manager')
    .set({
      username: v.username,
      ...(v.passwordHash ? { password_hash: v.passwordHash } : {}),
      role_id: v.roleId,
      status: v.status,
      updated_at: v.now,
      version: version + 1,
    })
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteManagerRow(db: Db, id: number): Promise<boolean> {
  const res = await db.deleteFrom('manager').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Replaces the hash only if it is still the one the old password was checked against. */
export async function replacePasswordHash(
  db: Db,
  id: number,
  expectedHash: string,
  newHash: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('manager')
    .set((eb) => ({ password_hash: newHash, updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('password_hash', '=', expectedHash)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function countManagersOfRole(db: Db, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('manager')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
