/** Notices and the two texts (DOMAIN.md §3 "Content, settings, statistics"; SPEC.md notice/*, protocol). */
import { Type } from '@sinclair/typebox';
import { NOTICE_TITLE_MAX, NoticeStatus as NoticeStatusEnum, PROTOCOL_TITLE_MAX } from '../../../domain/content';
import { RICH_TEXT_MAX } from '../../../domain/richText';
import {
  EnumSchema,
  IdParam,
  MultilineText,
  Nullable,
  NullableInt,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
} from '../../http/schemas';

export const NoticeStatus = EnumSchema(NoticeStatusEnum);

export const NoticeRow = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String({ description: 'sanitized HTML' }),
  pinned: Type.Boolean(),
  status: NoticeStatus,
  publishedAt: NullableInt,
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
  updatedBy: Type.String(),
});

export const NoticeListQuery = Type.Object(
  {
    ...PageQuery,
    keyword: Type.Optional(
      Type.String({ maxLength: NOTICE_TITLE_MAX, title: '标题', description: 'part of the title' }),
    ),
    status: Type.Optional(NoticeStatus),
    ...RangeQuery,
  },
  { additionalProperties: false },
);
export const NoticeListResult = Ok(PageOf(NoticeRow));

export const NoticeOptBody = Type.Object(
  {
    action: StringEnum(['create', 'update', 'publish', 'offline', 'delete'], {
      title: '操作',
      description: 'create (no id) | update | publish | offline | delete',
    }),
    id: Type.Optional(IdParam('公告ID')),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: NOTICE_TITLE_MAX, title: '标题' })),
    content: Type.Optional(
      MultilineText('内容', RICH_TEXT_MAX, { description: 'HTML; sanitized before it is stored' }),
    ),
    pinned: Type.Optional(Type.Boolean({ title: '置顶' })),
    /** create and update: publish at once after saving. */
    publish: Type.Optional(Type.Boolean({ title: '保存并发布' })),
    updatedAt: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2 ** 53 - 1,
        title: '版本',
        description: 'update: the updatedAt the editor loaded; a save over a newer one is refused (409)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const NoticeOptResult = Ok(Nullable(NoticeRow));

export const ProtocolQuery = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 1000, title: '文案ID', description: '6 平台介绍, 8 玩法说明' }) },
  { additionalProperties: false },
);

export const ProtocolRow = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String({ description: 'sanitized HTML' }),
  updatedAt: NullableInt,
  updatedBy: Type.String(),
});
export const ProtocolResult = Ok(ProtocolRow);

export const ProtocolBody = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 1000, title: '文案ID' }),
    title: Type.String({ minLength: 1, maxLength: PROTOCOL_TITLE_MAX, title: '标题' }),
    content: MultilineText('内容', RICH_TEXT_MAX, { description: 'HTML; sanitized before it is stored' }),
    updatedAt: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2 ** 53 - 1,
        title: '版本',
        description:
          'the updatedAt the editor loaded (0: it was never saved): a save over a newer one is refused (409)',
      }),
    ),
  },
  { additionalProperties: false },
);
