import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import { ok, type Static } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import {
  BindRoleBody,
  BindRoleResult,
  DeleteRoleQuery,
  DeleteRoleResult,
  RoleListQuery,
  RoleListResult,
  SaveRoleBody,
  SaveRoleResult,
} from './roles.schema';
import { bindRole, deleteRole, listRoles, saveRole } from './roles.service';

export default async function roleRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  app.get(
    '/v1/admin/role/list',
    {
      config: { permission: 'role:view' },
      schema: {
        operationId: 'listRoles',
        tags: ['system'],
        summary: '角色列表',
        querystring: RoleListQuery,
        response: { 200: RoleListResult },
      },
    },
    async (req) => ok(await listRoles(ctx, req.query as Static<typeof RoleListQuery>)),
  );

  app.post(
    '/v1/admin/role/create',
    {
      config: { permission: 'role:create' },
      schema: {
        operationId: 'saveRole',
        tags: ['system'],
        summary: '新增角色，或带 id 时编辑',
        body: SaveRoleBody,
        response: { 200: SaveRoleResult },
      },
    },
    async (req) => ok(await saveRole(ctx, actorOf(req), req.body as Static<typeof SaveRoleBody>)),
  );

  app.post(
    '/v1/admin/role/bind',
    {
      config: { permission: 'role:bind' },
      schema: {
        operationId: 'bindRole',
        tags: ['system'],
        summary: '为角色分配权限',
        body: BindRoleBody,
        response: { 200: BindRoleResult },
      },
    },
    async (req) => ok(await bindRole(ctx, actorOf(req), req.body as Static<typeof BindRoleBody>)),
  );

  // A GET that deletes because SPEC.md §7 fixes it so; the client generator makes it a mutation.
  app.get(
    '/v1/admin/role/delete',
    {
      config: { permission: 'role:delete' },
      schema: {
        operationId: 'deleteRole',
        tags: ['system'],
        summary: '删除角色（仍有管理员使用时拒绝）',
        querystring: DeleteRoleQuery,
        response: { 200: DeleteRoleResult },
      },
    },
    async (req) => {
      await deleteRole(ctx, actorOf(req), (req.query as Static<typeof DeleteRoleQuery>).roleId);
      return ok(null);
    },
  );
}
