/**
 * 系统设置 (settingLayout): the platform's settings, grouped as the page shows them. Each field's Chinese
 * name is written once here: the server's schema titles (a 400 names the field), its op-log rows
 * ("字段：旧 → 新") and the page's labels all read it. The LZ price is kept apart (its history is a
 * table, `price`), but is edited on the same page.
 */
export const SettingGroups = {
  platform: '平台信息',
  service: '客服',
  register: '注册与邀请',
  price: 'LZ 价格',
  app: 'App 版本',
  maintenance: '维护模式',
  match: '撮合',
  mall: '商城',
} as const;
export type SettingGroup = keyof typeof SettingGroups;

/** Every field's label, by group and key. */
export const SettingLabels = {
  platform: { name: '平台名称' },
  service: { wechat: '客服微信', phone: '客服电话' },
  register: { open: '开放注册', inviteReward: '邀请奖励（LZ）' },
  price: { lz: 'LZ 价格（USDT）' },
  app: { version: 'App 版本号', downloadUrl: '下载地址' },
  maintenance: { on: '维护模式', message: '维护公告' },
  match: { payTimeoutMinutes: '撮合付款时限（分钟）' },
  mall: { autoCompleteDays: '发货后自动完成（天）' },
} as const satisfies { [G in SettingGroup]: Record<string, string> };

/** Limits shared by the server's schema and the page's inputs. */
export const SettingLimits = {
  nameMax: 30,
  wechatMax: 40,
  phonePattern: '^[0-9+\\- ]{0,20}$',
  versionPattern: '^\\d{1,3}\\.\\d{1,3}\\.\\d{1,4}$',
  urlMax: 300,
  messageMax: 500,
  payTimeoutMinutes: { min: 5, max: 1440 },
  autoCompleteDays: { min: 1, max: 30 },
} as const;

/** A download URL: http(s) only. */
export const isDownloadUrl = (url: string) => url === '' || /^https?:\/\/[^\s"'<>`]+$/i.test(url);

export const SettingMessages = {
  badDownloadUrl: `${SettingLabels.app.downloadUrl}必须以 http:// 或 https:// 开头`,
  badVersion: `${SettingLabels.app.version}格式应为 1.2.3`,
  badPhone: `${SettingLabels.service.phone}只能包含数字、+、- 和空格`,
  maintenanceNeedsMessage: `开启维护模式时请填写${SettingLabels.maintenance.message}`,
  nothingToSave: '没有要保存的设置',
  changed: '系统设置已被其他管理员修改，请刷新后再保存',
} as const;
