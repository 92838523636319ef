/** Every module's routes, registered in this order. Adding a module = one line here. */
import authRoutes from './auth/auth.routes';
import systemRoutes from './system/system.routes';
import depositRoutes from './deposits/deposits.routes';
import withdrawRoutes from './withdrawals/withdrawals.routes';

export const routeModules = [authRoutes, systemRoutes, depositRoutes, withdrawRoutes];
