/** Every module's routes, registered in this order. Adding a module = one line here. */
import authRoutes from './auth/auth.routes';
import totpRoutes from './auth/totp.routes';
import systemRoutes from './system/system.routes';
import depositRoutes from './deposits/deposits.routes';
import withdrawRoutes from './withdrawals/withdrawals.routes';
import memberRoutes from './members/members.routes';
import paymentRoutes from './payments/payments.routes';
import transferRoutes from './transfers/transfers.routes';
import billRoutes from './bills/bills.routes';
import pledgeRoutes from './pledge/pledge.routes';
import seedRoutes from './seeds/seeds.routes';
import matchRoutes from './matches/matches.routes';
import uploadRoutes from './uploads/uploads.routes';
import mallRoutes from './mall/mall.routes';
import contentRoutes from './content/content.routes';
import settingRoutes from './settings/settings.routes';
import statRoutes from './stats/stats.routes';
import liveRoutes from './live/live.routes';

export const routeModules = [
  authRoutes,
  totpRoutes,
  systemRoutes,
  depositRoutes,
  withdrawRoutes,
  memberRoutes,
  paymentRoutes,
  transferRoutes,
  billRoutes,
  pledgeRoutes,
  seedRoutes,
  matchRoutes,
  uploadRoutes,
  mallRoutes,
  contentRoutes,
  settingRoutes,
  statRoutes,
  liveRoutes,
];
