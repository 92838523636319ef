import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf, assertCan } from '../../plugins/auth';
import {
  ChangePasswordQuery,
  ChangePasswordResult,
  DeleteManagerBody,
  DeleteManagerResult,
  ManagerListQuery,
  ManagerListResult,
  PermissionsQuery,
  PermissionsResult,
  SaveManagerBody,
  SaveManagerResult,
} from './managers.schema';
import { changePassword, deleteManager, listManagers, saveManager } from './managers.service';
import { ownPermissions, rolePermissions } from './roles.service';

const managerRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/user/list',
    {
      config: { permission: 'manager:view' },
      schema: {
        operationId: 'listManagers',
        tags: ['system'],
        summary: '管理员列表',
        querystring: ManagerListQuery,
        response: { 200: ManagerListResult },
      },
    },
    async (req) => ok(await listManagers(ctx, req.query)),
  );

  app.post(
    '/v1/admin/user/create',
    {
      config: { permission: 'manager:create', stepUp: true },
      schema: {
        operationId: 'saveManager',
        tags: ['system'],
        summary: '新增管理员，或带 id 时编辑',
        body: SaveManagerBody,
        response: { 200: SaveManagerResult },
      },
    },
    async (req) => ok(await saveManager(ctx, actorOf(req), req.body)),
  );

  app.post(
    '/v1/admin/user/delete',
    {
      config: { permission: 'manager:delete' },
      schema: {
        operationId: 'deleteManager',
        tags: ['system'],
        summary: '删除管理员',
        body: DeleteManagerBody,
        response: { 200: DeleteManagerResult },
      },
    },
    async (req) => {
      await deleteManager(ctx, actorOf(req), req.body.id);
      return ok(null);
    },
  );

  // A GET with the passwords in the query string because SPEC.md §7 fixes it so; app.ts keeps
  // this route's query string out of every log line.
  app.get(
    '/v1/admin/user/password',
    {
      config: { auth: 'session' },
      schema: {
        operationId: 'changePassword',
        tags: ['system'],
        summary: '修改自己的密码（成功后全部登录失效）',
        querystring: ChangePasswordQuery,
        response: { 200: ChangePasswordResult },
      },
    },
    async (req) => {
      await changePassword(ctx, actorOf(req), req.query);
      return ok(null);
    },
  );

  // Without roleId any logged-in manager reads his own codes (the client shows buttons by them);
  // with roleId it is the bind dialog's tree, which needs role:view — checked here, since a route
  // carries one declaration.
  app.get(
    '/v1/admin/user/permissions',
    {
      config: { auth: 'session' },
      schema: {
        operationId: 'getPermissions',
        tags: ['system'],
        summary: '权限树：不带 roleId 为当前管理员的权限，带 roleId 为该角色的权限（需角色查看权限）',
        querystring: PermissionsQuery,
        response: { 200: PermissionsResult },
      },
    },
    async (req) => {
      const { roleId } = req.query;
      if (roleId === undefined) return ok(ownPermissions(req.manager!));
      assertCan(req, 'role:view');
      return ok(await rolePermissions(ctx, roleId));
    },
  );
};

export default managerRoutes;
