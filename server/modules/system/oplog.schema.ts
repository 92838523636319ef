import { Type } from '@sinclair/typebox';
import { Ok, PageOf, PageQuery, RangeQuery } from '../../http/schemas';

export const OpLogListQuery = Type.Object(
  {
    ...PageQuery,
    username: Type.Optional(Type.String({ maxLength: 20, title: '用户名', description: 'exact user name' })),
    code: Type.Optional(Type.String({ maxLength: 64, title: '操作', description: 'a permission code' })),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const OpLogRow = Type.Object({
  id: Type.Integer(),
  managerId: Type.Integer(),
  username: Type.String(),
  /** The permission code of the action, e.g. 'manager:create'. */
  code: Type.String(),
  /** Its title in the permission tree, e.g. '新增/编辑管理员'. */
  codeTitle: Type.String(),
  target: Type.String(),
  summary: Type.String(),
  ip: Type.String(),
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

/** Newest first. */
export const OpLogListResult = Ok(PageOf(OpLogRow));
