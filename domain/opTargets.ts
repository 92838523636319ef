/**
 * The operation log's 操作对象 in Chinese: the server writes a stable machine form ('withdrawal#484',
 * 'manager#7 (uxtest01)', 'setting:withdraw.1'), the console shows '提现 #484', '管理员 #7（uxtest01）',
 * '提现设置'. An unknown form is shown as written.
 */

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

export function opTargetText(target: string): string {
  if (target === 'setting') return '系统设置';
  const setting = /^setting:(.+)$/.exec(target);
  if (setting) return SETTINGS[setting[1]] ?? '设置';
  const m = /^([A-Za-z]+)#(\d+)(?: \((.*)\))?$/.exec(target);
  if (!m) return target;
  const [, kind, id, name] = m;
  if (kind === 'protocol') return PROTOCOLS[id] ?? `文本 #${id}`;
  const label = KINDS[kind];
  if (!label) return target;
  return name === undefined ? `${label} #${id}` : `${label} #${id}（${name}）`;
}
