/** What every service needs: the database, the configuration and the clock. */
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Clock } from './clock';
import type { DialectKind } from './db/dialect';
import type { Database } from './db/schema';

export interface Ctx {
  db: Kysely<Database>;
  kind: DialectKind;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The manager acting, as recorded in the operation log. */
export interface Actor {
  managerId: number;
  username: string;
  ip: string;
}
