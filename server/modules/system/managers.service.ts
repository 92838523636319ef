/**
 * Managers: the list, create/edit, delete and one's own password (DOMAIN.md §3 System). Every change
 * is one transaction with its op-log row; the rules are checked against locked rows and applied with
 * conditional statements, so two managers acting at once get one success and one clear refusal.
 */
import { ManagerStatus, isValidUsername } from '../../../domain/managers';
import type { Actor, Ctx } from '../../context';
import type { Static } from '../../http/schemas';
import { pageOf } from '../../db/keyset';
import { isUniqueViolation } from '../../db/dialect';
import { AppError, badInput, conflict, forbidden, notFound } from '../../errors';
import { hashPassword, managerPasswordProblem, verifyPassword } from '../../passwords';
import { forgetAuthenticator } from '../auth/totp.service';
import { endSessions } from '../auth/session.service';
import { changed, changeList, managerAction } from '../oplog/managerAction';
import {
  countOtherEnabledSupers,
  deleteManagerRow,
  findManagerById,
  findManagers,
  insertManager,
  replacePasswordHash,
  updateManager,
  usernameTaken,
} from './managers.repository';
import { findRoleById, findRoleOptions, lockSuperRole } from './roles.repository';
import { ScopeMessages, beyond, loadGrantor, roleGrantIds } from './scope';
import type { ManagerListQuery, SaveManagerBody } from './managers.schema';

export const ManagerMessages = {
  badUsername: '用户名须为4-20位字母或数字',
  passwordRequired: '密码不能为空',
  versionRequired: '版本号不能为空',
  usernameTaken: '用户名已存在',
  roleMissing: '角色不存在',
  notFound: '管理员不存在',
  changedMeanwhile: '该管理员已被他人修改，请刷新后重试',
  selfDisable: '不能禁用自己',
  selfDelete: '不能删除自己',
  lastSuper: '至少需要保留一个启用的超级管理员',
  superOnly: '只有超级管理员可以管理超级管理员',
  selfRole: '不能修改自己的角色',
  grantBeyond: ScopeMessages.grantBeyond,
  editBeyond: '该管理员拥有你没有的权限，不能修改',
  deleteBeyond: '该管理员拥有你没有的权限，不能删除',
  wrongOldPassword: '原密码错误',
  samePassword: '新密码不能与原密码相同',
  passwordChangedMeanwhile: '密码已被修改，请重新登录',
} as const;

/** The list's query as its schema declares it. */
export type ManagerListInput = Static<typeof ManagerListQuery>;

export async function listManagers(ctx: Ctx, q: ManagerListInput) {
  const { page, size, offset } = pageOf(q);
  const [{ rows, total }, roles] = await Promise.all([
    findManagers(
      ctx.db,
      { username: q.username?.trim() || undefined, roleId: q.roleId, status: q.status },
      { offset, limit: size, sort: q.sort ?? 'id', order: q.order ?? 'asc' },
    ),
    findRoleOptions(ctx.db),
  ]);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      username: r.username,
      roleId: Number(r.role_id),
      roleName: r.role_name,
      isSuper: r.is_super === 1,
      status: r.status as 0 | 1,
      lastLoginAt: r.last_login_at == null ? null : Number(r.last_login_at),
      lastLoginIp: r.last_login_ip,
      totpOn: r.totp_on === 1,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      version: r.version,
    })),
    total,
    page,
    size,
    roles: roles.map((r) => ({ id: Number(r.id), name: r.name, isSuper: r.is_super === 1 })),
  };
}

export type SaveManagerInput = Static<typeof SaveManagerBody>;

const statusLabel = (s: number) => ManagerStatus.label(s);

export async function saveManager(ctx: Ctx, actor: Actor, input: SaveManagerInput) {
  const username = input.username.trim();
  if (!isValidUsername(username)) throw badInput(ManagerMessages.badUsername);
  const password = input.password ?? '';
  if (input.id === undefined && !password) throw badInput(ManagerMessages.passwordRequired);
  const passwordRefused = password ? managerPasswordProblem(password, { field: '密码', username }) : null;
  if (passwordRefused) throw badInput(passwordRefused);
  if (input.id !== undefined && input.version === undefined) throw badInput(ManagerMessages.versionRequired);
  const status = input.status ?? 1;
  // Hashing is slow on purpose: do it before the transaction holds any lock.
  const passwordHash = password ? await hashPassword(password) : undefined;
  try {
    return await managerAction(ctx, actor, async ({ trx, now }) => {
      await lockSuperRole(trx);
      // Locked so the role cannot be deleted while this manager is being given it.
      const role = await findRoleById(trx, input.roleId, true);
      if (!role) throw badInput(ManagerMessages.roleMissing);
      const caller = await loadGrantor(trx, actor.managerId);
      const callerIsSuper = caller.isSuper;
      if (role.is_super === 1 && !callerIsSuper) throw forbidden(ManagerMessages.superOnly);
      // Giving a manager a role grants him its permissions: only those the caller holds himself.
      const roleBeyond = beyond(caller, await roleGrantIds(trx, role));
      if (await usernameTaken(trx, username, input.id)) throw badInput(ManagerMessages.usernameTaken);

      if (input.id === undefined) {
        if (roleBeyond.length) throw forbidden(ManagerMessages.grantBeyond(roleBeyond));
        const id = await insertManager(trx, { username, passwordHash: passwordHash!, roleId: role.id, status, now });
        return {
          result: { id, version: 1 },
          log: {
            code: 'manager:create',
            target: `manager#${id} (${username})`,
            summary: `新增管理员 ${username}（角色：${role.name}，状态：${statusLabel(status)}）`,
          },
        };
      }

      const id = input.id;
      const version = input.version!;
      const cur = await findManagerById(trx, id, true);
      if (!cur) throw notFound(ManagerMessages.notFound);
      if (cur.is_super === 1 && !callerIsSuper) throw forbidden(ManagerMessages.superOnly);
      // Not even a super manager: a role change is for another manager to make (and to answer for).
      if (id === actor.managerId && Number(cur.role_id) !== role.id) throw badInput(ManagerMessages.selfRole);
      // Else a manager could reset the password of, or disable, one who may do more than he may. The
      // role row is locked so a bind widening it meanwhile is read, not missed.
      await findRoleById(trx, Number(cur.role_id), true);
      if (beyond(caller, await roleGrantIds(trx, { id: cur.role_id, is_super: cur.is_super })).length) {
        throw forbidden(ManagerMessages.editBeyond);
      }
      if (roleBeyond.length) throw forbidden(ManagerMessages.grantBeyond(roleBeyond));
      if (cur.version !== version) throw conflict(ManagerMessages.changedMeanwhile);
      if (id === actor.managerId && status !== ManagerStatus.is.enabled) throw badInput(ManagerMessages.selfDisable);
      const leavesSuper =
        cur.is_super === 1 &&
        cur.status === ManagerStatus.is.enabled &&
        (status !== ManagerStatus.is.enabled || role.is_super !== 1);
      if (leavesSuper && (await countOtherEnabledSupers(trx, id)) === 0) throw badInput(ManagerMessages.lastSuper);
      if (!(await updateManager(trx, id, version, { username, passwordHash, roleId: role.id, status, now }))) {
        throw conflict(ManagerMessages.changedMeanwhile);
      }
      // A disabled manager, or one whose password was reset, must log in again (302 on the next call).
      if ((cur.status === ManagerStatus.is.enabled && status !== ManagerStatus.is.enabled) || passwordHash)
        await endSessions(trx, id, now);

      const changes = changeList(
        [
          changed('用户名', cur.username, username),
          Number(cur.role_id) !== role.id && `角色 ${cur.role_name}→${role.name}`,
          changed('状态', statusLabel(cur.status), statusLabel(status)),
          !!passwordHash && '重置密码',
        ],
        '（无变化）',
      );
      return {
        result: { id, version: version + 1 },
        log: {
          code: 'manager:create',
          target: `manager#${id} (${username})`,
          summary: `编辑管理员 ${username}${changes}`,
        },
      };
    });
  } catch (err) {
    // Two creates of one name at once: the unique index refuses the second.
    if (!(err instanceof AppError) && isUniqueViolation(err)) throw badInput(ManagerMessages.usernameTaken);
    throw err;
  }
}

export async function deleteManager(ctx: Ctx, actor: Actor, id: number): Promise<void> {
  if (id === actor.managerId) throw badInput(ManagerMessages.selfDelete);
  await managerAction(ctx, actor, async ({ trx, now }) => {
    await lockSuperRole(trx);
    const cur = await findManagerById(trx, id, true);
    if (!cur) throw notFound(ManagerMessages.notFound);
    const caller = await loadGrantor(trx, actor.managerId);
    if (cur.is_super === 1) {
      if (!caller.isSuper) throw forbidden(ManagerMessages.superOnly);
      if (cur.status === ManagerStatus.is.enabled && (await countOtherEnabledSupers(trx, id)) === 0) {
        throw badInput(ManagerMessages.lastSuper);
      }
    }
    await findRoleById(trx, Number(cur.role_id), true);
    if (beyond(caller, await roleGrantIds(trx, { id: cur.role_id, is_super: cur.is_super })).length) {
      throw forbidden(ManagerMessages.deleteBeyond);
    }
    if (!(await deleteManagerRow(trx, id))) throw notFound(ManagerMessages.notFound);
    // SQLite may give his id to the next manager, who must inherit nothing of his authenticator.
    await forgetAuthenticator(trx, id);
    await endSessions(trx, id, now);
    return {
      result: undefined,
      log: { code: 'manager:delete', target: `manager#${id} (${cur.username})`, summary: `删除管理员 ${cur.username}` },
    };
  });
}

/**
 * Changes the caller's own password. Success ends every session of the manager, the current one
 * included: the client goes to login with the new password.
 */
export async function changePassword(
  ctx: Ctx,
  actor: Actor,
  input: { oldPassword: string; newPassword: string },
): Promise<void> {
  const cur = await findManagerById(ctx.db, actor.managerId);
  if (!cur) throw notFound(ManagerMessages.notFound);
  if (!(await verifyPassword(cur.password_hash, input.oldPassword))) throw badInput(ManagerMessages.wrongOldPassword);
  if (input.newPassword === input.oldPassword) throw badInput(ManagerMessages.samePassword);
  const refused = managerPasswordProblem(input.newPassword, { field: '新密码', username: cur.username });
  if (refused) throw badInput(refused);
  const newHash = await hashPassword(input.newPassword);
  await managerAction(ctx, actor, async ({ trx, now }) => {
    // Only if the hash is still the one the old password matched: a concurrent change wins once.
    if (!(await replacePasswordHash(trx, cur.id, cur.password_hash, newHash, now))) {
      throw conflict(ManagerMessages.passwordChangedMeanwhile);
    }
    await endSessions(trx, cur.id, now);
    return {
      result: undefined,
      log: { code: 'password:update', target: `manager#${cur.id} (${cur.username})`, summary: '修改自己的登录密码' },
    };
  });
}
