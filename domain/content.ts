/**
 * Content (DOMAIN.md §3 "Content, settings, statistics"): notices and the two texts (protocols). The rules
 * the server keeps and the page offers: a notice is written as a draft, published (it shows to members
 * from its publish time), taken offline, and edited or deleted only while it is not published, so what
 * members read never changes under them without a trace (edit = 下线 → 编辑 → 发布, each in the op log).
 */
import { defineEnum, defineTransitions, type EnumValue } from './enums';

export const NoticeStatus = defineEnum('状态', {
  draft: [0, '草稿', 'default'],
  published: [1, '已发布', 'success'],
  offline: [2, '已下线', 'warning'],
});
export type NoticeStatus = EnumValue<typeof NoticeStatus>;

/** notice/opt's state changes: publish a draft or an offline notice, take a published one offline. */
export const NoticeActions = defineTransitions(NoticeStatus, {
  publish: { label: '发布', from: [0, 2], to: 1 },
  offline: { label: '下线', from: [1], to: 2 },
});
export type NoticeAction = 'create' | 'update' | 'publish' | 'offline' | 'delete';
/** The states in which a notice may be edited or deleted (not while members can read it). */
export const NOTICE_EDITABLE: readonly NoticeStatus[] = [0, 2];
export const noticeEditable = (status: number) => (NOTICE_EDITABLE as readonly number[]).includes(status);

export const NOTICE_TITLE_MAX = 100;

/** The two texts of SPEC.md §5 (protocol ids): 平台介绍 is 6, 玩法说明 is 8. */
export const ProtocolIds = { intro: 6, play: 8 } as const;
export type ProtocolId = (typeof ProtocolIds)[keyof typeof ProtocolIds];
export const ProtocolTitles: Record<ProtocolId, string> = { 6: '平台介绍', 8: '玩法说明' };
/** Each text's page (its view permission) and the action that saves it. */
export const ProtocolCodes: Record<ProtocolId, { view: 'intro:view' | 'play:view'; update: string }> = {
  6: { view: 'intro:view', update: 'intro:update' },
  8: { view: 'play:view', update: 'play:update' },
};
export const isProtocolId = (id: number): id is ProtocolId => id === 6 || id === 8;
export const PROTOCOL_TITLE_MAX = 60;

export const ContentMessages = {
  noticeNotFound: '公告不存在',
  noticeChanged: '公告已被其他管理员修改，请刷新后再编辑',
  editPublished: '已发布的公告不能直接编辑，请先下线',
  deletePublished: '已发布的公告不能删除，请先下线',
  publishPublished: '该公告已发布',
  offlineNotPublished: '只有已发布的公告可以下线',
  emptyContent: '内容不能为空',
  protocolUnknown: '文案 ID 只能是 6（平台介绍）或 8（玩法说明）',
  protocolChanged: '该文案已被其他管理员修改，请刷新后再编辑',
} as const;
