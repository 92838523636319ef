/** What every service needs: the database, the configuration and the clock. */
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Clock } from './clock';
import type { Db, DbSource, DialectKind } from './db/dialect';
import type { Database } from './db/schema';

export interface Ctx {
  db: Kysely<Database>;
  kind: DialectKind;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A connection of its own for a long read (exports), where the database offers one (Db.reader). */
  reader?: () => Db;
  /** How another thread opens the database (Db.source): exports run in a worker thread when there is one. */
  dbSource?: DbSource;
}

/**
 * What an export's builder reads with (server/export/exporters.ts): in a worker thread, only its own
 * connection, and where to open another (a CSV or an xlsx on PostgreSQL reads its rows by COPY on one
 * of its own).
 */
export type ExportCtx = Pick<Ctx, 'db' | 'kind' | 'dbSource'>;

/** The manager acting, as recorded in the operation log. */
export interface Actor {
  managerId: number;
  username: string;
  ip: string;
}
