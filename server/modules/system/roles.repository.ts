/** All SQL on roles and their grants. */
import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { keysetSlice, type KeysetPageRequest } from '../../db/keyset';
import { forUpdate } from '../../db/dialect';
import { likePrefix } from '../../db/sql';
import { ShapedQuery } from '../../db/shapes';

type Db = Kysely<Database> | Transaction<Database>;

const SORT_COLUMNS = { id: 'r.id', createdAt: 'r.created_at', name: 'r.name' } as const;
export type RoleSort = keyof typeof SORT_COLUMNS;

function filtered(db: Db, f: { name?: string }) {
  let q = db.selectFrom('role as r');
  if (f.name) q = q.where(sql<boolean>`lower(r.name) like ${`%${likePrefix(f.name.toLowerCase())}`} escape '\\'`);
  return q;
}

export async function findRoles(db: Db, f: { name?: string }, page: KeysetPageRequest & { sort: RoleSort }) {
  const [rows, count] = await Promise.all([
    keysetSlice(
      filtered(db, f).select((eb) => [
        'r.id',
        'r.name',
        'r.remark',
        'r.is_super',
        'r.require_totp',
        'r.created_at',
        'r.updated_at',
        eb
          .selectFrom('manager as m')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('m.role_id', '=', 'r.id')
          .as('manager_count'),
      ]),
      page,
      { sort: SORT_COLUMNS[page.sort], id: 'r.id', afterLookup: false },
    ).execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

const roleOptions = new ShapedQuery(
  () => '',
  (db) => (db as Db).selectFrom('role').select(['id', 'name', 'is_super']).orderBy('id'),
);

/** Every role (id, name, super flag), for selects. */
export async function findRoleOptions(db: Db) {
  return roleOptions.execute(db, null, {});
}

export async function findRoleById(db: Db, id: number, lock = false) {
  const q = db
    .selectFrom('role')
    .select(['id', 'name', 'remark', 'is_super', 'perm_version', 'require_totp'])
    .where('id', '=', id);
  return lock ? forUpdate(q, db as unknown as Kysely<unknown>).executeTakeFirst() : q.executeTakeFirst();
}

/**
 * Locks the super role's row (PostgreSQL). Every manager change takes it first, so changes that
 * could leave no enabled super manager run one after another instead of each seeing the other's
 * manager still enabled. SQLite runs one writer at a time anyway.
 */
export async function lockSuperRole(db: Db) {
  return forUpdate(
    db.selectFrom('role').select(['id']).where('is_super', '=', 1),
    db as unknown as Kysely<unknown>,
  ).executeTakeFirst();
}

export async function roleNameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('role')
    .select('id')
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function findGrantIds(db: Db, roleIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(roleIds.map((id) => [id, []]));
  if (!roleIds.length) return out;
  const rows = await db
    .selectFrom('role_permission')
    .select(['role_id', 'permission_id'])
    .where('role_id', 'in', roleIds)
    .orderBy('role_id')
    .orderBy('permission_id')
    .execute();
  for (const r of rows) out.get(Number(r.role_id))?.push(Number(r.permission_id));
  return out;
}

/**
 * A new role starts at a random perm_version: SQLite may give a deleted role's id to the next role,
 * and the cached codes of each process are keyed by id and version (session.service.ts), so a
 * reused id must not come back with the version the deleted role's grants were cached under.
 */
export async function insertRole(
  db: Db,
  v: { name: string; remark: string; requireTotp?: boolean; now: number },
): Promise<number> {
  const row = await db
    .insertInto('role')
    .values({
      name: v.name,
      remark: v.remark,
      is_super: 0,
      require_totp: v.requireTotp ? 1 : 0,
      perm_version: randomInt(1, 2 ** 30),
      created_at: v.now,
      updated_at: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateRole(
  db: Db,
  id: number,
  v: { name: string; remark: string; requireTotp: boolean; now: number },
) {
  const res = await db
    .updateTable('role')
    .set({ name: v.name, remark: v.remark, require_totp: v.requireTotp ? 1 : 0, updated_at: v.now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Replaces a role's grants and bumps perm_version so every process drops its cached codes. */
export async function replaceGrants(db: Db, roleId: number, permissionIds: number[], now: number) {
  await db.deleteFrom('role_permission').where('role_id', '=', roleId).execute();
  if (permissionIds.length) {
    await db
      .insertInto('role_permission')
      .values(permissionIds.map((permission_id) => ({ role_id: roleId, permission_id })))
      .execute();
  }
  const res = await db
    .updateTable('role')
    .set((eb) => ({ perm_version: eb('perm_version', '+', 1), updated_at: now }))
    .where('id', '=', roleId)
    .where('is_super', '=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Deletes a non-super role that no manager holds, in one conditional statement. */
export async function deleteUnusedRole(db: Db, roleId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('role')
    .where('id', '=', roleId)
    .where('is_super', '=', 0)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('manager').select('id').where('manager.role_id', '=', roleId))))
    .executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) return false;
  // The foreign key cascades too; said here so the grants go even where it is not enforced.
  await db.deleteFrom('role_permission').where('role_id', '=', roleId).execute();
  return true;
}
