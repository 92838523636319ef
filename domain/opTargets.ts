/**
 * The operation log's 操作对象 in Chinese: the server writes a stable machine form ('withdrawal#484',
 * 'manager#7 (uxtest01)', 'setting:withdraw.1'), the console shows '提现 #484', '管理员 #7（uxtest01）',
 * '提现设置'. An unknown form is shown as written.
 */

import { pagePaths } from './pagePaths';

const KINDS: Readonly<Record<string, string>> = {
  withdrawal: '提现',
  deposit: '充值',
  depositAccount: '充值账户',
  member: '会员',
  manager: '管理员',
  role: '角色',
  product: '商品',
  order: '订单',
  match: '撮合',
  notice: '公告',
  payment: '收款方式',
  pledgeMode: '质押模式',
  zone: '区域',
};

const PROTOCOLS: Readonly<Record<string, string>> = { '6': '平台介绍', '8': '玩法说明' };

const SETTINGS: Readonly<Record<string, string>> = {
  deposit: '充值设置',
  'withdraw.1': '提现设置',
  'withdraw.2': '提取设置',
  'withdrawAccount.1': '提现出款账户',
  'withdrawAccount.2': '提取出款账户',
};

export function opTargetText(target: string, code?: string): string {
  if (target === 'setting') return '系统设置';
  const setting = /^setting:(.+)$/.exec(target);
  if (setting) return SETTINGS[setting[1]] ?? '设置';
  const m = /^([A-Za-z]+)#(\d+)(?: \((.*)\))?$/.exec(target);
  if (!m) return target;
  const [, kind, id, name] = m;
  if (kind === 'protocol') return PROTOCOLS[id] ?? `文本 #${id}`;
  // A 提取 is written as a withdrawal: its permission code tells.
  const label = kind === 'withdrawal' && code?.startsWith('extract:') ? '提取' : KINDS[kind];
  if (!label) return target;
  return name === undefined ? `${label} #${id}` : `${label} #${id}（${name}）`;
}

/** The page of each kind of record, where a target opens (narrowed to it where the page can be). */
const KIND_PAGES: Readonly<Record<string, (id: string, name?: string) => string>> = {
  deposit: (id) => `${pagePaths['deposit:view']}?id=${id}`,
  depositAccount: () => pagePaths['depositAccount:view'],
  member: (_id, uid) => `${pagePaths['member:view']}${uid ? `?keyword=${encodeURIComponent(uid)}` : ''}`,
  manager: (_id, name) => `${pagePaths['manager:view']}${name ? `?username=${encodeURIComponent(name)}` : ''}`,
  role: (_id, name) => `${pagePaths['role:view']}${name ? `?name=${encodeURIComponent(name)}` : ''}`,
  product: () => pagePaths['product:view'],
  order: () => pagePaths['order:view'],
  match: () => pagePaths['match:view'],
  notice: () => pagePaths['notice:view'],
  payment: () => pagePaths['payment:view'],
  pledgeMode: () => pagePaths['pledgeMode:view'],
  zone: () => pagePaths['zone:view'],
};
const PROTOCOL_PAGES: Readonly<Record<string, string>> = { '6': pagePaths['intro:view'], '8': pagePaths['play:view'] };
const SETTING_PAGES: Readonly<Record<string, string>> = {
  deposit: pagePaths['depositSetting:update'],
  'withdraw.1': pagePaths['withdrawSetting:view'],
  'withdraw.2': `${pagePaths['withdrawSetting:view']}?type=2`,
  'withdrawAccount.1': pagePaths['withdrawSetting:view'],
  'withdrawAccount.2': `${pagePaths['withdrawSetting:view']}?type=2`,
};

/**
 * Where an op-log target opens (the path below /layout/), or null. A withdrawal's target does not say
 * whether it is a 提现 or a 提取: the row's permission code does (`extract:*` for a 提取); without it the
 * target stays text.
 */
export function opTargetPath(target: string, code?: string): string | null {
  if (target === 'setting') return pagePaths['setting:view'];
  const setting = /^setting:(.+)$/.exec(target);
  if (setting) return SETTING_PAGES[setting[1]] ?? pagePaths['setting:view'];
  const m = /^([A-Za-z]+)#(\d+)(?: \((.*)\))?$/.exec(target);
  if (!m) return null;
  const [, kind, id, name] = m;
  if (kind === 'protocol') return PROTOCOL_PAGES[id] ?? null;
  if (kind === 'withdrawal') {
    if (!code) return null;
    return `${pagePaths[code.startsWith('extract:') ? 'extract:view' : 'withdraw:view']}?id=${id}`;
  }
  return KIND_PAGES[kind]?.(id, name) ?? null;
}
