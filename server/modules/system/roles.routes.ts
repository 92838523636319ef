import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
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

const roleRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
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
    async (req) => ok(await listRoles(ctx, req.query)),
  );

  app.post(
    '/v1/admin/role/create',
    {
      config: { permission: 'role:create', stepUp: true },
      schema: {
        operationId: 'saveRole',
        tags: ['system'],
        summary: '新增角色，或带 id 时编辑',
        body: SaveRoleBody,
        response: { 200: SaveRoleResult },
      },
    },
    async (req) => ok(await saveRole(ctx, actorOf(req), req.body)),
  );

  app.post(
    '/v1/admin/role/bind',
    {
      config: { permission: 'role:bind', stepUp: true },
      schema: {
        operationId: 'bindRole',
        tags: ['system'],
        summary: '为角色分配权限',
        body: BindRoleBody,
        response: { 200: BindRoleResult },
      },
    },
    async (req) => ok(await bindRole(ctx, actorOf(req), req.body)),
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
      await deleteRole(ctx, actorOf(req), req.query.roleId);
      return ok(null);
    },
  );
};

export default roleRoutes;
