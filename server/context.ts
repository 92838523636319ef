/** What every service needs: the database, the configuration and the clock. */
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Clock } from './clock';
import type { Db, DialectKind } from './db/dialect';
import type { Database } from './db/schema';

export interface Ctx {
  db: Kysely<Database>;
  kind: DialectKind;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A connection of its own for a long read (exports), where the database offers one (Db.reader). */
  reader?: () => Db;
}

/** The manager acting, as recorded in the operation log. */
export interface Actor {
  managerId: number;
  username: string;
  ip: string;
}
