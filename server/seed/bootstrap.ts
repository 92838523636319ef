/**
 * What every start does after migrating: bring the permission table in line with the tree in
 * domain/permissions.ts, and make sure the super role and a super manager exist.
 */
import type { Kysely } from 'kysely';
import { allPermissions } from '../../domain/permissions';
import type { Database } from '../db/schema';
import { hashPassword, randomPassword } from '../passwords';

export const SUPER_ROLE_NAME = '超级管理员';
export const ADMIN_USERNAME = 'admin';

export async function syncPermissions(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ids = allPermissions.map((p) => p.id);
    // Removed codes first, so a code that moved to a new id cannot collide on the unique index.
    await trx.deleteFrom('permission').where('id', 'not in', ids).execute();
    for (const [sort, p] of allPermissions.entries()) {
      await trx
        .insertInto('permission')
        .values({ id: p.id, parent_id: p.parentId, code: p.code, title: p.title, kind: p.kind, sort })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ parent_id: p.parentId, code: p.code, title: p.title, kind: p.kind, sort }),
        )
        .execute();
    }
  });
}

export interface EnsuredAdmin {
  created: boolean;
  username: string;
  /** Only a password this start generated: one from ADMIN_PASSWORD is the operator's already. */
  generatedPassword?: string;
}

/** Creates the super role and the admin manager on first start. */
export async function ensureSuperAdmin(
  db: Kysely<Database>,
  now: number,
  adminPassword?: string,
): Promise<EnsuredAdmin> {
  let role = await db.selectFrom('role').select('id').where('is_super', '=', 1).executeTakeFirst();
  if (!role) {
    role = await db
      .insertInto('role')
      .values({ name: SUPER_ROLE_NAME, remark: '拥有全部权限', is_super: 1, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  const existing = await db.selectFrom('manager').select('id').where('role_id', '=', role.id).executeTakeFirst();
  if (existing) return { created: false, username: ADMIN_USERNAME };
  const password = adminPassword ?? randomPassword();
  await db
    .insertInto('manager')
    .values({
      username: ADMIN_USERNAME,
      password_hash: await hashPassword(password),
      role_id: role.id,
      status: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { created: true, username: ADMIN_USERNAME, ...(adminPassword ? {} : { generatedPassword: password }) };
}

/**
 * The lines `npm start` prints to the terminal (stderr, never through the JSON log on stdout, which
 * log collectors keep): the password appears only when this start generated it.
 */
export function startBanner(admin: EnsuredAdmin, where: { url: string; kind: string }): string {
  const account = admin.generatedPassword
    ? `  管理员账号 admin user: ${admin.username}   密码 password: ${admin.generatedPassword}  (只显示这一次 shown once)`
    : admin.created
      ? `  管理员账号 admin user: ${admin.username} (password from ADMIN_PASSWORD)`
      : `  管理员账号 admin user: ${admin.username} (password set on first start; ADMIN_PASSWORD applies to a new database only)`;
  return ['', `  后台管理控制台 running at ${where.url}  (API docs: /docs, database: ${where.kind})`, account, ''].join(
    '\n',
  );
}
