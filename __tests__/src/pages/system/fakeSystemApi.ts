/**
 * A small in-memory stand-in for the system routes, answered through mockFetch: enough state for the
 * pages to list, save and refresh, and a log of every request for the assertions.
 */
import type {
  ListManagersApiResponse,
  ListRolesApiResponse,
  PermissionTreeNode,
} from '../../../../src/services/generated/system';
import { envelope, mockFetch } from '../../mockFetch';
import { NO_TOTP } from '../../shellHarness';

export type Manager = ListManagersApiResponse['list'][number];
export type Role = ListRolesApiResponse['list'][number];

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

export const T0 = Date.UTC(2026, 10, 20, 2, 30, 0); // 2026-11-20 10:30:00 in Asia/Shanghai

export function managers(): Manager[] {
  return [
    {
      id: 1,
      username: 'admin',
      roleId: 1,
      roleName: '超级管理员',
      isSuper: true,
      status: 1,
      totpOn: false,
      lastLoginAt: T0,
      lastLoginIp: '10.0.0.8',
      createdAt: T0 - 86_400_000,
      updatedAt: T0,
      version: 3,
    },
    {
      id: 2,
      username: 'auditor01',
      roleId: 2,
      roleName: '审核员',
      isSuper: false,
      status: 0,
      totpOn: true,
      lastLoginAt: null,
      lastLoginIp: null,
      createdAt: T0,
      updatedAt: T0,
      version: 5,
    },
  ];
}

export function roles(): Role[] {
  return [
    {
      id: 1,
      name: '超级管理员',
      remark: '拥有全部权限',
      isSuper: true,
      managerCount: 1,
      permissionIds: [],
      requireTotp: false,
      createdAt: T0,
      updatedAt: T0,
    },
    {
      id: 2,
      name: '审核员',
      remark: '审核提现',
      isSuper: false,
      managerCount: 1,
      permissionIds: [100, 110],
      requireTotp: true,
      createdAt: T0,
      updatedAt: T0,
    },
  ];
}

const node = (
  id: number,
  code: string,
  title: string,
  kind: PermissionTreeNode['kind'],
  children: PermissionTreeNode[] = [],
  always = false,
): PermissionTreeNode => ({ id, code, title, kind, checked: false, always, children });

/** A cut of the real tree: 系统管理 (管理员 + 3 actions, 角色管理 + 3, 修改密码 always) and 转账记录. */
export function tree(checkedCodes: string[]): PermissionTreeNode[] {
  const t = [
    node(100, 'system', '系统管理', 'group', [
      node(110, 'manager:view', '管理员', 'page', [
        node(111, 'manager:create', '新增/编辑管理员', 'action'),
        node(112, 'manager:delete', '删除管理员', 'action'),
        node(113, 'oplog:view', '查看操作日志', 'action'),
      ]),
      node(120, 'role:view', '角色管理', 'page', [
        node(121, 'role:create', '新增/编辑角色', 'action'),
        node(122, 'role:bind', '分配权限', 'action'),
        node(123, 'role:delete', '删除角色', 'action'),
      ]),
      node(130, 'password:update', '修改密码', 'page', [], true),
    ]),
    node(300, 'transfer:view', '转账记录', 'page'),
  ];
  const mark = (list: PermissionTreeNode[]) =>
    list.forEach((n) => {
      n.checked = n.always || checkedCodes.includes(n.code);
      mark(n.children);
    });
  mark(t);
  return t;
}

export const ALL_CODES = [
  'system',
  'manager:view',
  'manager:create',
  'manager:delete',
  'oplog:view',
  'role:view',
  'role:create',
  'role:bind',
  'role:delete',
  'password:update',
];

type Reply = Response | undefined;

/**
 * Installs the fake. `codes` are the caller's own permission codes; `override(call)` may answer a
 * request first (a refusal); anything it leaves returns the default answer.
 */
export function fakeSystemApi(
  opts: { codes?: string[]; roleCodes?: string[]; override?: (call: Call) => Reply | Promise<Reply> } = {},
) {
  const calls: Call[] = [];
  const state = { managers: managers(), roles: roles() };
  const fetchMock = mockFetch(async (request) => {
    const url = new URL(request.url);
    const text = request.method === 'POST' ? await request.text() : '';
    const call: Call = {
      method: request.method,
      path: url.pathname.replace('/v1/admin/', ''),
      query: Object.fromEntries(url.searchParams),
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const overridden = await opts.override?.(call);
    if (overridden) return overridden;
    switch (call.path) {
      case 'user/permissions':
        if (call.query.roleId) {
          const t = tree(opts.roleCodes ?? []);
          return envelope({ codes: opts.roleCodes ?? [], tree: t });
        }
        return envelope({ codes: opts.codes ?? ALL_CODES, tree: tree(opts.codes ?? ALL_CODES) });
      case 'user/menu':
        return envelope([]);
      case 'user/totp':
        return envelope({ ...NO_TOTP, available: true });
      case 'user/list':
        return envelope({
          list: state.managers,
          total: state.managers.length,
          page: 1,
          size: 20,
          roles: state.roles.map((r) => ({ id: r.id, name: r.name, isSuper: r.isSuper })),
        });
      case 'user/create':
        return envelope({ id: call.body.id ?? 9, version: (call.body.version ?? 0) + 1 });
      case 'user/delete':
        state.managers = state.managers.filter((m) => m.id !== call.body.id);
        return envelope(null);
      case 'user/totp/reset': {
        const target = state.managers.find((m) => m.id === call.body.id);
        if (!target) return envelope(null, 404, '管理员不存在');
        if (!target.totpOn) return envelope(null, 409, `管理员 ${target.username} 未绑定身份验证器`);
        state.managers = state.managers.map((m) => (m === target ? { ...m, totpOn: false } : m));
        return envelope(null);
      }
      case 'user/opt/list':
        return envelope({
          list: [
            {
              id: 7,
              managerId: 1,
              username: 'admin',
              code: 'role:bind',
              codeTitle: '分配权限',
              target: 'role#2 (审核员)',
              summary: '为角色 审核员 分配权限（1项）：管理员',
              ip: '10.0.0.8',
              createdAt: T0,
            },
          ],
          total: 1,
          page: 1,
          size: 20,
        });
      case 'role/list':
        return envelope({ list: state.roles, total: state.roles.length, page: 1, size: 20 });
      case 'role/create':
        return envelope({ id: call.body.id ?? 9 });
      case 'role/bind':
        return envelope({ roleId: call.body.roleId, permissionIds: call.body.permissionIds });
      case 'role/delete':
        return envelope(null);
      case 'user/password':
        return envelope(null);
      default:
        return envelope(null, 404, '接口不存在');
    }
  });
  const of = (path: string) => calls.filter((c) => c.path === path);
  return { calls, of, state, fetchMock };
}
