/**
 * The rule against privilege self-escalation (docs/decisions.md, "Access control"): a manager hands
 * out only permissions he holds himself, directly (role/bind) or through a role (user/create), and
 * acts only on roles and managers whose permissions he holds all of. A super manager holds them all.
 * Everything here is read inside the change's transaction, so a bind committed meanwhile counts.
 */
import { allPermissions, grantsBeyond, permissionById } from '../../../domain/permissions';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { findManagerById } from './managers.repository';
import { findGrantIds } from './roles.repository';

type Db = Kysely<Database> | Transaction<Database>;

const ALL_IDS = allPermissions.map((p) => p.id);

export const ScopeMessages = {
  grantBeyond: (ids: number[]) => `不能授予自己没有的权限：${titlesOf(ids)}`,
} as const;

/** The titles of some permissions, for a message: the first few, then how many more. */
export function titlesOf(ids: number[], shown = 5): string {
  const titles = ids.map((id) => permissionById.get(id)?.title ?? String(id));
  return titles.length > shown ? `${titles.slice(0, shown).join('、')}等${titles.length}项` : titles.join('、');
}

/** The manager acting, with what he may hand out. */
export interface Grantor {
  managerId: number;
  /** null when he was deleted meanwhile: he then holds nothing. */
  roleId: number | null;
  isSuper: boolean;
  held: ReadonlySet<number>;
}

/** Every permission id a role grants (all of them for the super role, which stores none). */
export async function roleGrantIds(db: Db, role: { id: number | string; is_super: number }): Promise<number[]> {
  if (role.is_super === 1) return ALL_IDS;
  const id = Number(role.id);
  return (await findGrantIds(db, [id])).get(id) ?? [];
}

export async function loadGrantor(db: Db, managerId: number): Promise<Grantor> {
  const m = await findManagerById(db, managerId);
  if (!m) return { managerId, roleId: null, isSuper: false, held: new Set() };
  const isSuper = m.is_super === 1;
  return {
    managerId,
    roleId: Number(m.role_id),
    isSuper,
    held: new Set(await roleGrantIds(db, { id: m.role_id, is_super: m.is_super })),
  };
}

/** The pages and actions among `ids` the grantor does not hold (none for a super manager). */
export function beyond(g: Grantor, ids: Iterable<number>): number[] {
  return g.isSuper ? [] : grantsBeyond(g.held, ids);
}
