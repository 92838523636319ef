/**
 * Roles and their grants (DOMAIN.md §2, §3 System). Grants are stored closed upward (an action
 * brings its page, a page its group, see closeGrants) and every bind bumps the role's perm_version,
 * which is how every server process notices that its cached codes for the role are stale.
 */
import {
  allPermissions,
  alwaysAllowedCodes,
  closeGrants,
  permissionById,
  permissionTree,
  type PermissionKind,
  type PermissionNode,
} from '../../../domain/permissions';
import type { Actor, Ctx } from '../../context';
import { pageOf } from '../../db/keyset';
import { isUniqueViolation } from '../../db/dialect';
import { AppError, badInput, conflict, forbidden, notFound } from '../../errors';
import type { SessionManager } from '../auth/session.service';
import { changed, changeList, managerAction } from '../oplog/managerAction';
import {
  deleteUnusedRole,
  findGrantIds,
  findRoleById,
  findRoles,
  insertRole,
  replaceGrants,
  roleNameTaken,
  updateRole,
  type RoleSort,
} from './roles.repository';
import { countManagersOfRole } from './managers.repository';
import { ScopeMessages, beyond, loadGrantor, roleGrantIds, type Grantor } from './scope';

export const RoleMessages = {
  notFound: '角色不存在',
  totpUnavailable: '服务器未配置 TOTP_KEY，不能要求绑定身份验证器',
  nameTaken: '角色名称已存在',
  nameBlank: '角色名称不能为空',
  superImmutable: '超级管理员角色不可修改',
  superUndeletable: '超级管理员角色不可删除',
  inUse: '该角色下还有管理员，无法删除',
  superOnly: '只有超级管理员可以修改超级角色',
  selfBind: '不能为自己的角色分配权限',
  grantBeyond: ScopeMessages.grantBeyond,
  editBeyond: '该角色拥有你没有的权限，不能修改',
  deleteBeyond: '该角色拥有你没有的权限，不能删除',
  unknownPermission: (ids: number[]) => `权限不存在：${ids.join('，')}`,
} as const;

const ALL_IDS = allPermissions.map((p) => p.id);

export async function listRoles(
  ctx: Ctx,
  q: { page?: number; size?: number; sort?: RoleSort; order?: 'asc' | 'desc'; name?: string },
) {
  const { page, size, offset } = pageOf(q);
  const { rows, total } = await findRoles(
    ctx.db,
    { name: q.name?.trim() || undefined },
    { offset, limit: size, sort: q.sort ?? 'id', order: q.order ?? 'asc' },
  );
  const grants = await findGrantIds(
    ctx.db,
    rows.map((r) => Number(r.id)),
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      remark: r.remark,
      isSuper: r.is_super === 1,
      requireTotp: r.require_totp === 1,
      managerCount: Number(r.manager_count ?? 0),
      permissionIds: r.is_super === 1 ? ALL_IDS : (grants.get(Number(r.id)) ?? []),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    })),
    total,
    page,
    size,
  };
}

export async function saveRole(
  ctx: Ctx,
  actor: Actor,
  input: { id?: number; name: string; remark?: string; requireTotp?: boolean },
) {
  const name = input.name.trim();
  if (!name) throw badInput(RoleMessages.nameBlank);
  const remark = (input.remark ?? '').trim();
  // Without TOTP_KEY nobody can bind: a role that required it would lock its managers out for good.
  if (input.requireTotp && !ctx.config.totpKey) throw conflict(RoleMessages.totpUnavailable);
  try {
    return await managerAction(ctx, actor, async ({ trx, now }) => {
      if (await roleNameTaken(trx, name, input.id)) throw badInput(RoleMessages.nameTaken);
      if (input.id === undefined) {
        const requireTotp = input.requireTotp ?? false;
        const id = await insertRole(trx, { name, remark, requireTotp, now });
        return {
          result: { id },
          log: {
            code: 'role:create',
            target: `role#${id} (${name})`,
            summary: `新增角色 ${name}${requireTotp ? '（要求绑定身份验证器）' : ''}`,
          },
        };
      }
      const cur = await findRoleById(trx, input.id, true);
      if (!cur) throw notFound(RoleMessages.notFound);
      await assertInScope(trx, actor, cur, RoleMessages.editBeyond);
      const requireTotp = input.requireTotp ?? cur.require_totp === 1;
      if (!(await updateRole(trx, input.id, { name, remark, requireTotp, now }))) throw notFound(RoleMessages.notFound);
      const changes = changeList(
        [
          changed('名称', cur.name, name),
          cur.remark !== remark && '修改备注',
          requireTotp !== (cur.require_totp === 1) && (requireTotp ? '要求绑定身份验证器' : '不再要求绑定身份验证器'),
        ],
        '（无变化）',
      );
      return {
        result: { id: input.id },
        log: { code: 'role:create', target: `role#${input.id} (${name})`, summary: `编辑角色 ${name}${changes}` },
      };
    });
  } catch (err) {
    if (!(err instanceof AppError) && isUniqueViolation(err)) throw badInput(RoleMessages.nameTaken);
    throw err;
  }
}

export async function bindRole(ctx: Ctx, actor: Actor, input: { roleId: number; permissionIds: number[] }) {
  const { ids, unknown } = closeGrants(input.permissionIds);
  if (unknown.length) throw badInput(RoleMessages.unknownPermission([...new Set(unknown)]));
  return managerAction(ctx, actor, async ({ trx, now }) => {
    const role = await findRoleById(trx, input.roleId, true);
    if (!role) throw notFound(RoleMessages.notFound);
    const caller = await assertInScope(trx, actor, role, RoleMessages.editBeyond);
    if (role.is_super === 1) throw badInput(RoleMessages.superImmutable);
    // Even within what he holds: widening his own role is the one grant nobody should make to himself.
    if (caller.roleId === Number(role.id)) throw badInput(RoleMessages.selfBind);
    const over = beyond(caller, ids);
    if (over.length) throw forbidden(RoleMessages.grantBeyond(over));
    if (!(await replaceGrants(trx, role.id, ids, now))) throw badInput(RoleMessages.superImmutable);
    const pages = ids.map((id) => permissionById.get(id)!).filter((p) => p.kind !== 'group');
    return {
      result: { roleId: Number(role.id), permissionIds: ids },
      log: {
        code: 'role:bind',
        target: `role#${role.id} (${role.name})`,
        summary: `为角色 ${role.name} 分配权限（${pages.length}项）：${pages.map((p) => p.title).join('、') || '无'}`,
      },
    };
  });
}

export async function deleteRole(ctx: Ctx, actor: Actor, roleId: number): Promise<void> {
  await managerAction(ctx, actor, async ({ trx }) => {
    const role = await findRoleById(trx, roleId, true);
    if (!role) throw notFound(RoleMessages.notFound);
    await assertInScope(trx, actor, role, RoleMessages.deleteBeyond);
    if (role.is_super === 1) throw badInput(RoleMessages.superUndeletable);
    if ((await countManagersOfRole(trx, roleId)) > 0) throw badInput(RoleMessages.inUse);
    // Conditional again: a manager given this role meanwhile (where rows are not locked) still blocks it.
    if (!(await deleteUnusedRole(trx, roleId))) throw badInput(RoleMessages.inUse);
    return {
      result: undefined,
      log: { code: 'role:delete', target: `role#${roleId} (${role.name})`, summary: `删除角色 ${role.name}` },
    };
  });
}

/**
 * A non-super manager acts only on roles whose permissions he holds all of: the super role is a super
 * manager's alone, and a narrower manager could otherwise strip or rename a wider role.
 */
async function assertInScope(
  trx: Parameters<typeof loadGrantor>[0],
  actor: Actor,
  role: { id: number; is_super: number },
  refusal: string,
): Promise<Grantor> {
  const caller = await loadGrantor(trx, actor.managerId);
  if (caller.isSuper) return caller;
  if (role.is_super === 1) throw forbidden(RoleMessages.superOnly);
  if (beyond(caller, await roleGrantIds(trx, role)).length) throw forbidden(refusal);
  return caller;
}

export interface PermissionTreeNode {
  id: number;
  code: string;
  title: string;
  kind: PermissionKind;
  checked: boolean;
  always: boolean;
  children: PermissionTreeNode[];
}

function treeOf(nodes: PermissionNode[], has: (code: string) => boolean): PermissionTreeNode[] {
  return nodes.map((n) => ({
    id: n.id,
    code: n.code,
    title: n.title,
    kind: n.kind,
    checked: has(n.code),
    always: !!n.always,
    children: treeOf(n.children ?? [], has),
  }));
}

/** Codes in tree order (the order the console lists them). */
const inTreeOrder = (has: (code: string) => boolean) => allPermissions.map((p) => p.code).filter(has);

/** The caller's own codes and the tree checked for his role (needs only a session). */
export function ownPermissions(caller: SessionManager) {
  const has = (code: string) => caller.codes.has(code);
  return { codes: inTreeOrder(has), tree: treeOf(permissionTree, has) };
}

/** A role's codes and the tree checked for it (the bind dialog). */
export async function rolePermissions(ctx: Ctx, roleId: number) {
  const role = await findRoleById(ctx.db, roleId);
  if (!role) throw notFound(RoleMessages.notFound);
  let codes: Set<string>;
  if (role.is_super === 1) {
    codes = new Set(allPermissions.map((p) => p.code));
  } else {
    const ids = (await findGrantIds(ctx.db, [roleId])).get(roleId) ?? [];
    codes = new Set([...ids.map((id) => permissionById.get(id)?.code ?? ''), ...alwaysAllowedCodes]);
    codes.delete('');
  }
  const has = (code: string) => codes.has(code);
  return { codes: inTreeOrder(has), tree: treeOf(permissionTree, has) };
}
