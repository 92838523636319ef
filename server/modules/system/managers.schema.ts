import { Type } from '@sinclair/typebox';
import { ManagerStatus as Status } from '../../../domain/managers';
import {
  IdParam,
  IntEnum,
  MAX_INT4,
  Nullable,
  NullableString,
  Ok,
  OkNull,
  PageOf,
  PageQuery,
  StringEnum,
} from '../../http/schemas';

/** 1 启用, 0 禁用 */
export const ManagerStatus = IntEnum(Status.values, { title: '状态', description: '1 启用, 0 禁用' });

export const ManagerListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt', 'lastLoginAt'], { title: '排序字段' })),
    username: Type.Optional(Type.String({ maxLength: 20, title: '用户名', description: 'part of the user name' })),
    roleId: Type.Optional(IdParam('角色')),
    status: Type.Optional(ManagerStatus),
  },
  { additionalProperties: false },
);

export const ManagerRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  roleId: Type.Integer(),
  roleName: Type.String(),
  /** The manager's role is the super role (holds everything). */
  isSuper: Type.Boolean(),
  status: ManagerStatus,
  lastLoginAt: Nullable(Type.Integer(), { description: 'epoch ms' }),
  lastLoginIp: NullableString,
  /** An authenticator is bound (the super manager may reset it). */
  totpOn: Type.Boolean(),
  createdAt: Type.Integer({ description: 'epoch ms' }),
  updatedAt: Type.Integer({ description: 'epoch ms' }),
  version: Type.Integer({ description: 'send it back with an edit (user/create with id)' }),
});

export const RoleOption = Type.Object({ id: Type.Integer(), name: Type.String(), isSuper: Type.Boolean() });

/** `roles`: every role, for the role filter and the dialog's role select (needs no role:view). */
export const ManagerListResult = Ok(PageOf(ManagerRow, { roles: Type.Array(RoleOption) }));

export const SaveManagerBody = Type.Object(
  {
    id: Type.Optional(IdParam('管理员ID')),
    version: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_INT4,
        title: '版本号',
        description: 'required with id: the row version the edit is based on',
      }),
    ),
    username: Type.String({ minLength: 1, maxLength: 64, title: '用户名', description: '4–20 letters or digits' }),
    password: Type.Optional(
      Type.String({
        maxLength: 128,
        title: '密码',
        description:
          '10–64 printable characters (spaces and symbols allowed), not a common password nor the user name; required on create, blank on edit keeps it',
      }),
    ),
    roleId: IdParam('角色'),
    status: Type.Optional(ManagerStatus),
  },
  { additionalProperties: false },
);

export const SaveManagerResult = Ok(Type.Object({ id: Type.Integer(), version: Type.Integer() }));

export const DeleteManagerBody = Type.Object({ id: IdParam('管理员ID') }, { additionalProperties: false });
export const DeleteManagerResult = OkNull;

export const ChangePasswordQuery = Type.Object(
  {
    oldPassword: Type.String({ minLength: 1, maxLength: 128, title: '原密码' }),
    newPassword: Type.String({
      minLength: 1,
      maxLength: 128,
      title: '新密码',
      description: '10–64 printable characters (spaces and symbols allowed), not a common password nor the user name',
    }),
  },
  { additionalProperties: false },
);
/** Every session of the caller has ended: the client clears its token and goes to login. */
export const ChangePasswordResult = OkNull;

export const PermissionTreeNode = Type.Recursive(
  (Self) =>
    Type.Object({
      id: Type.Integer(),
      code: Type.String(),
      title: Type.String(),
      kind: StringEnum(['group', 'page', 'action']),
      /** The role holds this node (stored grants are closed upward: a held action implies its page and group). */
      checked: Type.Boolean(),
      /** Granted to everyone (change own password): show it checked and disabled. */
      always: Type.Boolean(),
      children: Type.Array(Self),
    }),
  { $id: 'PermissionTreeNode' },
);

export const PermissionsQuery = Type.Object(
  { roleId: Type.Optional(IdParam('角色')) },
  { additionalProperties: false },
);

export const PermissionsResult = Ok(
  Type.Object({
    /** Codes held (the caller's, or the role's with roleId), including the always-granted ones. */
    codes: Type.Array(Type.String()),
    tree: Type.Array(PermissionTreeNode),
  }),
);
