/** System management (DOMAIN.md §3 System): managers, roles, permissions, own password, operation log. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import managerRoutes from './managers.routes';
import opLogRoutes from './oplog.routes';
import roleRoutes from './roles.routes';

export default async function systemRoutes(app: FastifyInstance, opts: { ctx: Ctx }) {
  await managerRoutes(app, opts);
  await roleRoutes(app, opts);
  await opLogRoutes(app, opts);
}
