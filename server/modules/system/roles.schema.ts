import { Type } from '@sinclair/typebox';
import { IdParam, MAX_INT4, MultilineText, Ok, OkNull, PageOf, PageQuery, StringEnum } from '../../http/schemas';

export const RoleListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt', 'name'], { title: '排序字段' })),
    name: Type.Optional(Type.String({ maxLength: 50, title: '角色名称', description: 'part of the name' })),
  },
  { additionalProperties: false },
);

export const RoleRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  remark: Type.String(),
  /** The super role holds everything; it cannot be rebound or deleted. */
  isSuper: Type.Boolean(),
  /** Its managers must bind an authenticator before anything else (issue 15). */
  requireTotp: Type.Boolean(),
  /** Managers holding this role. */
  managerCount: Type.Integer(),
  /** Granted permission ids (closed upward); every id for the super role. */
  permissionIds: Type.Array(Type.Integer()),
  createdAt: Type.Integer({ description: 'epoch ms' }),
  updatedAt: Type.Integer({ description: 'epoch ms' }),
});

export const RoleListResult = Ok(PageOf(RoleRow));

export const SaveRoleBody = Type.Object(
  {
    id: Type.Optional(IdParam('角色ID')),
    name: Type.String({ minLength: 1, maxLength: 50, title: '角色名称' }),
    remark: Type.Optional(MultilineText('备注', 200)),
    /** Left out on an edit: unchanged. */
    requireTotp: Type.Optional(Type.Boolean({ title: '要求绑定身份验证器' })),
  },
  { additionalProperties: false },
);
export const SaveRoleResult = Ok(Type.Object({ id: Type.Integer() }));

export const BindRoleBody = Type.Object(
  {
    roleId: IdParam('角色'),
    permissionIds: Type.Array(Type.Integer({ title: '权限', minimum: 1, maximum: MAX_INT4 }), {
      maxItems: 1000,
      title: '权限',
    }),
  },
  { additionalProperties: false },
);
/** The stored grant after normalizing (an action brings its page and group). */
export const BindRoleResult = Ok(Type.Object({ roleId: Type.Integer(), permissionIds: Type.Array(Type.Integer()) }));

export const DeleteRoleQuery = Type.Object({ roleId: IdParam('角色') }, { additionalProperties: false });
export const DeleteRoleResult = OkNull;
