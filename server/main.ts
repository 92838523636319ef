/** `npm start` lands here: check the configuration, migrate, seed, serve, and stop cleanly on SIGTERM. */
import { ConfigError, loadConfig } from './config';
import { buildApp, loggerOptions } from './app';
import { systemClock } from './clock';
import { createDb } from './db/dialect';
import { commonPasswords } from './passwords';
import { migrateToLatest } from './db/migrate';
import { ensureSuperAdmin, startBanner, syncPermissions } from './seed/bootstrap';
import { seedDemoData } from './seed/demo';
import { startSettlement } from './modules/settlement/settlement.scheduler';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`配置错误 (configuration error): ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  commonPasswords(); // a build without the list must stop here, not refuse every password change
  const { db, kind, close, reader, source } = createDb(config.databaseUrl);
  await migrateToLatest(db);
  await syncPermissions(db);
  const admin = await ensureSuperAdmin(db, systemClock.now(), config.adminPassword);
  const app = await buildApp({
    ctx: { db, kind, config, clock: systemClock, reader, dbSource: source },
    logger: loggerOptions(config.logLevel),
    web: true,
  });
  if (config.trustProxy === true) {
    app.log.warn(
      'TRUST_PROXY=true: any client may name its own address in X-Forwarded-For; name only your proxy (see README)',
    );
  }
  if (admin.created && config.demoData) {
    app.log.info('creating demo data (first start)…');
    await seedDemoData(app.ctx);
  }
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  // PORT=0 picks a free port: show the one it got.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stderr.write(`${startBanner(admin, { url: `http://${shown}:${port}`, kind })}\n`);
  // The daily settlement job and the match expiry (SETTLE_ENABLED, SETTLE_AT: README).
  const stopSettlement = config.settleEnabled ? startSettlement(app.ctx) : async () => undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await stopSettlement();
    await app.close();
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
