/**
 * The permission tree: the one declaration of the console's pages (menu entries) and action points.
 * The database is seeded from it, the menu is filtered by it, the role-bind dialog draws it and every
 * API route names one of its codes. Ids are explicit and never reused so that stored grants survive
 * reordering. Adding a page = a row here + a server module + a page folder.
 */
import { pagePaths, type PageCode } from './pagePaths';

export type PermissionKind = 'group' | 'page' | 'action';

export interface PermissionNode {
  id: number;
  code: string;
  title: string;
  kind: PermissionKind;
  /** Icon key for groups (SPEC.md §2), route tail for pages. */
  name?: string;
  /** Route path: the menu index and breadcrumb key. */
  layout?: string;
  /** Granted to every manager (change own password). */
  always?: boolean;
  children?: PermissionNode[];
}

const L = '/layout';

/** A page node's code, kind, route tail and menu path, from its one path in ./pagePaths.ts. */
function pageAt(code: PageCode) {
  const path = pagePaths[code];
  return { code, kind: 'page' as const, name: path.slice(path.lastIndexOf('/') + 1), layout: `${L}/${path}` };
}

export const permissionTree: PermissionNode[] = [
  {
    id: 100,
    code: 'system',
    title: '系统管理',
    kind: 'group',
    name: 'systemLayout',
    layout: `${L}/systemLayout`,
    children: [
      {
        id: 110,
        ...pageAt('manager:view'),
        title: '管理员',
        children: [
          { id: 111, code: 'manager:create', title: '新增/编辑管理员', kind: 'action' },
          { id: 112, code: 'manager:delete', title: '删除管理员', kind: 'action' },
          { id: 113, code: 'oplog:view', title: '查看操作日志', kind: 'action' },
        ],
      },
      {
        id: 120,
        ...pageAt('role:view'),
        title: '角色管理',
        children: [
          { id: 121, code: 'role:create', title: '新增/编辑角色', kind: 'action' },
          { id: 122, code: 'role:bind', title: '分配权限', kind: 'action' },
          { id: 123, code: 'role:delete', title: '删除角色', kind: 'action' },
        ],
      },
      {
        id: 130,
        ...pageAt('password:update'),
        title: '修改密码',
        always: true,
      },
    ],
  },
  {
    id: 200,
    code: 'member',
    title: '会员管理',
    kind: 'group',
    name: 'memberLayout',
    layout: `${L}/memberLayout`,
    children: [
      {
        id: 210,
        ...pageAt('member:view'),
        title: '会员列表',
        children: [
          { id: 211, code: 'member:create', title: '新增会员', kind: 'action' },
          { id: 212, code: 'member:opt', title: '会员操作', kind: 'action' },
          { id: 213, code: 'member:adjust', title: '调整余额', kind: 'action' },
        ],
      },
      {
        id: 220,
        ...pageAt('zone:view'),
        title: '专区管理',
        children: [{ id: 221, code: 'zone:opt', title: '专区操作', kind: 'action' }],
      },
      {
        id: 230,
        ...pageAt('query:view'),
        title: '资产查询',
      },
      {
        id: 240,
        ...pageAt('payment:view'),
        title: '收款方式',
        children: [
          { id: 241, code: 'payment:opt', title: '审核收款方式', kind: 'action' },
          { id: 242, code: 'payment:export', title: '导出收款方式', kind: 'action' },
        ],
      },
    ],
  },
  {
    id: 300,
    ...pageAt('transfer:view'),
    title: '转账记录',
  },
  {
    id: 400,
    code: 'pledge',
    title: '质押管理',
    kind: 'group',
    name: 'pledgeLayout',
    layout: `${L}/pledgeLayout`,
    children: [
      {
        id: 410,
        ...pageAt('pledge:view'),
        title: '质押记录',
        children: [{ id: 411, code: 'pledge:export', title: '导出质押记录', kind: 'action' }],
      },
      {
        id: 420,
        ...pageAt('pledgeMode:view'),
        title: '质押设置',
        children: [{ id: 421, code: 'pledgeMode:update', title: '新增/编辑质押模式', kind: 'action' }],
      },
    ],
  },
  {
    id: 500,
    code: 'withdraw',
    title: '提现管理',
    kind: 'group',
    name: 'withdrawLayout',
    layout: `${L}/withdrawLayout`,
    children: [
      {
        id: 510,
        ...pageAt('withdraw:view'),
        title: '提现审核',
        children: [
          { id: 511, code: 'withdraw:audit', title: '审核提现', kind: 'action' },
          { id: 512, code: 'withdraw:pay', title: '确认打款', kind: 'action' },
          { id: 513, code: 'withdraw:export', title: '导出提现记录', kind: 'action' },
        ],
      },
      {
        id: 520,
        ...pageAt('extract:view'),
        title: '提取审核',
        children: [
          { id: 521, code: 'extract:audit', title: '审核提取', kind: 'action' },
          { id: 522, code: 'extract:pay', title: '确认提取打款', kind: 'action' },
          { id: 523, code: 'extract:export', title: '导出提取记录', kind: 'action' },
        ],
      },
      {
        id: 530,
        ...pageAt('withdrawSetting:view'),
        title: '提现设置',
        children: [{ id: 531, code: 'withdrawSetting:update', title: '修改提现设置', kind: 'action' }],
      },
    ],
  },
  {
    id: 600,
    code: 'deposit',
    title: '充值管理',
    kind: 'group',
    name: 'depositLayout',
    layout: `${L}/depositLayout`,
    children: [
      {
        id: 610,
        ...pageAt('deposit:view'),
        title: '充值记录',
        children: [
          { id: 611, code: 'deposit:audit', title: '审核充值', kind: 'action' },
          { id: 612, code: 'deposit:export', title: '导出充值记录', kind: 'action' },
        ],
      },
      {
        id: 620,
        ...pageAt('depositSetting:update'),
        title: '充值设置',
      },
      {
        id: 630,
        ...pageAt('depositAccount:view'),
        title: '收款地址',
        children: [{ id: 631, code: 'depositAccount:opt', title: '管理收款地址', kind: 'action' }],
      },
    ],
  },
  {
    id: 700,
    ...pageAt('bill:view'),
    title: '账单流水',
  },
  {
    id: 800,
    code: 'energy',
    title: '能量管理',
    kind: 'group',
    name: 'energyLayout',
    layout: `${L}/energyLayout`,
    children: [
      {
        id: 810,
        ...pageAt('seed:view'),
        title: '种子记录',
      },
      {
        id: 820,
        ...pageAt('change:view'),
        title: '能量变动',
      },
    ],
  },
  {
    id: 900,
    code: 'mall',
    title: '商城管理',
    kind: 'group',
    name: 'mallLayout',
    layout: `${L}/mallLayout`,
    children: [
      {
        id: 910,
        ...pageAt('product:view'),
        title: '商品管理',
        children: [
          { id: 911, code: 'product:edit', title: '新增/编辑商品', kind: 'action' },
          { id: 912, code: 'product:operate', title: '上下架/删除商品', kind: 'action' },
        ],
      },
      {
        id: 920,
        ...pageAt('order:view'),
        title: '订单管理',
        children: [
          { id: 921, code: 'order:opt', title: '订单发货/完成/取消', kind: 'action' },
          { id: 922, code: 'order:export', title: '导出订单', kind: 'action' },
        ],
      },
    ],
  },
  {
    id: 1000,
    ...pageAt('match:view'),
    title: '撮合管理',
    children: [{ id: 1001, code: 'match:opt', title: '撮合仲裁', kind: 'action' }],
  },
  {
    id: 1100,
    ...pageAt('stat:view'),
    title: '数据统计',
  },
  {
    id: 1200,
    ...pageAt('notice:view'),
    title: '公告管理',
    children: [{ id: 1201, code: 'notice:opt', title: '新增/编辑/发布/下线/删除公告', kind: 'action' }],
  },
  {
    id: 1300,
    code: 'desc',
    title: '说明管理',
    kind: 'group',
    name: 'descLayout',
    layout: `${L}/descLayout`,
    children: [
      {
        id: 1310,
        ...pageAt('intro:view'),
        title: '平台介绍',
        children: [{ id: 1311, code: 'intro:update', title: '修改平台介绍', kind: 'action' }],
      },
      {
        id: 1320,
        ...pageAt('play:view'),
        title: '玩法说明',
        children: [{ id: 1321, code: 'play:update', title: '修改玩法说明', kind: 'action' }],
      },
    ],
  },
  {
    id: 1400,
    ...pageAt('setting:view'),
    title: '系统设置',
    children: [{ id: 1401, code: 'setting:update', title: '修改系统设置', kind: 'action' }],
  },
];

/** Every node, depth first. */
export function flattenPermissions(nodes: PermissionNode[] = permissionTree, parentId: number | null = null) {
  const out: Array<PermissionNode & { parentId: number | null }> = [];
  for (const n of nodes) {
    out.push({ ...n, parentId });
    if (n.children) out.push(...flattenPermissions(n.children, n.id));
  }
  return out;
}

export const allPermissions = flattenPermissions();
export type PermissionCode = string;
export const permissionByCode = new Map(allPermissions.map((p) => [p.code, p]));
export const permissionById = new Map(allPermissions.map((p) => [p.id, p]));
export const alwaysAllowedCodes = allPermissions.filter((p) => p.always).map((p) => p.code);

export function isPermissionCode(code: string): boolean {
  return permissionByCode.has(code);
}

/**
 * Normalizes a set of granted ids: an action grants its page, a page grants its group (so the
 * menu can show it). Unknown ids are reported so the caller can refuse them.
 */
export function closeGrants(ids: number[]): { ids: number[]; unknown: number[] } {
  const out = new Set<number>();
  const unknown: number[] = [];
  for (const id of ids) {
    let node = allPermissions.find((p) => p.id === id);
    if (!node) {
      unknown.push(id);
      continue;
    }
    while (node) {
      out.add(node.id);
      const parentId: number | null = node.parentId;
      node = parentId == null ? undefined : allPermissions.find((p) => p.id === parentId);
    }
  }
  return { ids: [...out].sort((a, b) => a - b), unknown };
}

/**
 * The pages and actions among `wanted` that `held` lacks, in id order: what a manager holding `held`
 * may not grant. Groups are menu headings only (shown when one of their pages is held) and the
 * always-granted pages belong to everyone, so neither counts; unknown ids are left to closeGrants.
 */
export function grantsBeyond(held: ReadonlySet<number>, wanted: Iterable<number>): number[] {
  const out = new Set<number>();
  for (const id of wanted) {
    const p = permissionById.get(id);
    if (p && p.kind !== 'group' && !p.always && !held.has(id)) out.add(id);
  }
  return [...out].sort((a, b) => a - b);
}

/** The menu entry of SPEC.md §3. */
export interface MenuEntry {
  id: number;
  title: string;
  name: string;
  layout: string;
  sub: MenuEntry[];
}

/** Builds the menu of the pages whose codes `has` accepts; a group appears when one of its pages does. */
export function buildMenu(has: (code: string) => boolean, nodes: PermissionNode[] = permissionTree): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const n of nodes) {
    if (n.kind === 'action') continue;
    if (n.kind === 'group') {
      const sub = buildMenu(has, n.children ?? []);
      if (sub.length) out.push({ id: n.id, title: n.title, name: n.name ?? '', layout: n.layout ?? '', sub });
    } else if (n.always || has(n.code)) {
      out.push({ id: n.id, title: n.title, name: n.name ?? '', layout: n.layout ?? '', sub: [] });
    }
  }
  return out;
}
