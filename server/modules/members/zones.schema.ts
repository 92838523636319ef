/** The zone routes' schemas. */
import { Type } from '@sinclair/typebox';
import { ZoneActions, ZoneStatus as ZoneStatusEnum } from '../../../domain/members';
import { EnumSchema, IdParam, Ok, PageOf, PageQuery, StringEnum, NullableString } from '../../http/schemas';

/** 1 启用, 0 停用 */
export const ZoneStatus = EnumSchema(ZoneStatusEnum);

export const ZoneListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(StringEnum(['sort', 'id', 'memberCount', 'createdAt'], { title: '排序字段' })),
    name: Type.Optional(Type.String({ maxLength: 50, title: '专区名称', description: 'contains' })),
    status: Type.Optional(ZoneStatus),
  },
  { additionalProperties: false },
);
export const ZoneRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  leaderUid: NullableString,
  leaderNickname: NullableString,
  memberCount: Type.Integer(),
  status: ZoneStatus,
  sort: Type.Integer(),
  createdAt: Type.Integer({ description: 'epoch ms' }),
  updatedAt: Type.Integer({ description: 'epoch ms' }),
});
export const ZoneListResult = Ok(PageOf(ZoneRow));

export const ZoneOptBody = Type.Object(
  {
    action: StringEnum([...ZoneActions], { title: '操作', description: 'create | update | enable | disable | delete' }),
    id: Type.Optional(IdParam('专区ID')),
    name: Type.Optional(Type.String({ maxLength: 50, title: '专区名称' })),
    leaderUid: Type.Optional(
      Type.String({ maxLength: 8, title: '负责人UID', description: 'must be a member; "" clears it' }),
    ),
    sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999, title: '排序' })),
  },
  { additionalProperties: false },
);
export const ZoneOptResult = Ok(Type.Object({ id: Type.Integer() }));
