/**
 * Demo roles and managers (DOMAIN.md §4), made through the services the console uses, by the admin
 * manager, so the operation log starts with their history. Demo managers get random passwords: demo
 * data may land on a real server, and an operator who wants to try a role sets one in 管理员.
 */
import { isPermissionCode, permissionByCode } from '../../../domain/permissions';
import type { Actor, Ctx } from '../../context';
import { randomPassword } from '../../passwords';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { saveManager } from './managers.service';
import { bindRole, saveRole } from './roles.service';

/**
 * Codes not (yet) in the permission tree are skipped, so a role picks up a page's codes as soon as
 * the module that adds them exists.
 */
export const DEMO_ROLES: Array<{ name: string; remark: string; codes: string[] }> = [
  {
    name: '财务',
    remark: '充值、提现审核与账单核对',
    codes: [
      'withdraw:view',
      'withdraw:audit',
      'withdraw:pay',
      'extract:view',
      'extract:audit',
      'extract:pay',
      'deposit:view',
      'deposit:audit',
      'depositAccount:view',
      'bill:view',
      'transfer:view',
      'query:view',
      'stat:view',
    ],
  },
  {
    name: '客服',
    remark: '会员查询与收款方式审核',
    codes: ['member:view', 'payment:view', 'payment:opt', 'transfer:view', 'query:view', 'order:view', 'match:view'],
  },
  {
    name: '运营',
    remark: '会员、专区、商城与内容运营',
    codes: [
      'member:view',
      'member:create',
      'member:opt',
      'zone:view',
      'zone:opt',
      'change:view',
      'product:view',
      'product:opt',
      'order:view',
      'notice:view',
      'notice:opt',
      'stat:view',
    ],
  },
];

export const DEMO_MANAGERS: Array<{ username: string; role: string; status: 0 | 1 }> = [
  { username: 'caiwu01', role: '财务', status: 1 },
  { username: 'caiwu02', role: '财务', status: 1 },
  { username: 'kefu001', role: '客服', status: 1 },
  { username: 'kefu002', role: '客服', status: 0 },
  { username: 'yunying1', role: '运营', status: 1 },
];

export async function seedSystemDemo(ctx: Ctx): Promise<void> {
  const admin = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirstOrThrow();
  const actor: Actor = { managerId: Number(admin.id), username: admin.username, ip: '127.0.0.1' };
  const roleIds = new Map<string, number>();
  for (const role of DEMO_ROLES) {
    const { id } = await saveRole(ctx, actor, { name: role.name, remark: role.remark });
    const permissionIds = role.codes.filter(isPermissionCode).map((c) => permissionByCode.get(c)!.id);
    await bindRole(ctx, actor, { roleId: id, permissionIds });
    roleIds.set(role.name, id);
  }
  for (const m of DEMO_MANAGERS) {
    await saveManager(ctx, actor, {
      username: m.username,
      password: randomPassword(),
      roleId: roleIds.get(m.role)!,
      status: m.status,
    });
  }
}
