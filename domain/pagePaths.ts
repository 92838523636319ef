/**
 * Where each page of the console lives, by its permission code: the path below /layout. The one place
 * a page's path is written: the permission tree (./permissions.ts) takes the menu's `layout` and the
 * route tail `name` from here, and the client's route registry (src/routes.tsx) its routes. Apart from
 * the tree so that the client's entry bundle (the router) carries the paths but not the tree.
 */
export const pagePaths = {
  'manager:view': 'systemLayout/managerLayout',
  'role:view': 'systemLayout/roleLayout',
  'password:update': 'systemLayout/passwordLayout',
  'member:view': 'memberLayout/memberListLayout',
  'zone:view': 'memberLayout/zoneLayout',
  'query:view': 'memberLayout/queryListLayout',
  'payment:view': 'memberLayout/paymentListLayout',
  'transfer:view': 'transferLayout',
  'pledge:view': 'pledgeLayout/pledgeListLayout',
  'pledgeMode:view': 'pledgeLayout/pledgeSettingLayout',
  'withdraw:view': 'withdrawLayout/withdrawListLayout',
  'extract:view': 'withdrawLayout/extractListLayout',
  'withdrawSetting:view': 'withdrawLayout/withdrawSettingLayout',
  'deposit:view': 'depositLayout/depositListLayout',
  'depositSetting:update': 'depositLayout/depositSettingLayout',
  'depositAccount:view': 'depositLayout/accountLayout',
  'bill:view': 'billLayout',
  'seed:view': 'energyLayout/seedLayout',
  'change:view': 'energyLayout/changeLayout',
  'product:view': 'mallLayout/productLayout',
  'order:view': 'mallLayout/orderLayout',
  'match:view': 'matchLayout',
  'stat:view': 'statLayout',
  'notice:view': 'noticeLayout',
  'intro:view': 'descLayout/introLayout',
  'play:view': 'descLayout/playLayout',
  'setting:view': 'settingLayout',
} as const;

export type PageCode = keyof typeof pagePaths;
