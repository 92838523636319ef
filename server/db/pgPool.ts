/**
 * PostgreSQL connections: the pools createDb (./dialect.ts) makes, and a statement run on a connection
 * of its own (a schema made or dropped outside any pool).
 */
import pg from 'pg';
import { type PreparedNames, withPreparedStatements } from './statements';

/** The part of a pino / Fastify logger the database layer writes to. */
export interface DbLog {
  warn(obj: object, msg: string): void;
}

/** What a report says about a connection error: never the statement's parameters. */
const errSummary = (err: unknown) => {
  const e = err as { message?: string; code?: string } | null;
  return { message: e?.message ?? String(err), ...(e?.code ? { code: e.code } : {}) };
};

export const createPgSchema = (url: string, schema: string) =>
  statementOnItsOwn(url, schema, `CREATE SCHEMA IF NOT EXISTS ${schema}`);

/** One statement on a connection of its own (a schema made or dropped before or after any pool). */
async function statementOnItsOwn(url: string, schema: string, text: string) {
  const c = new pg.Client({ connectionString: url, fallback_application_name: schema });
  c.on('error', () => undefined); // a lost connection fails the pending call below instead
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * A pool of `max` connections in the schema, each prepared by name (withPreparedStatements) and planned
 * in `mode`: custom (with each execution's values) for the pool every query uses, generic for the one
 * that serves statements marked GENERIC_PLAN outside a transaction.
 */
export function pgPool(o: {
  url: string;
  schema: string | undefined;
  applicationName: string | undefined;
  holder: { log: DbLog };
  ensureSchema: () => Promise<void>;
  names: PreparedNames;
  mode: 'custom' | 'generic';
  max: number;
}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.max,
    ...(o.applicationName
      ? { application_name: o.applicationName }
      : { fallback_application_name: o.schema ?? `lz-admin-console-${process.pid}` }),
    // A connection whose peer vanished without a word (a failover, a dropped NAT entry) is found out
    // by TCP keepalive instead of hanging the request that next uses it.
    keepAlive: true,
    ...(o.schema ? { options: `-c search_path=${o.schema}` } : {}),
  });
  // A connection can die at any time (pg_terminate_backend, a restart, a failover, a proxy's idle
  // timeout). pg reports it as an 'error' event: on the pool for an idle connection, on the client
  // for one checked out — and an 'error' event nobody listens to ends the process. The pool has already
  // dropped an idle one; a checked-out one fails its query (that request answers 500) and is dropped
  // when released, as it is no longer queryable. Each client logs its loss once, in the listener below.
  pool.on('error', () => undefined);
  // Prepared statements save each connection re-parsing a statement, but their plans stay custom (made
  // with the values) on the main pool: a generic plan of `… limit $1` expects a tenth of the table and
  // can be a parallel seq scan and sort (measured on the bench schema for the member page), and
  // PostgreSQL's switch to it compares costs it cannot see are wrong.
  const setMode = `set plan_cache_mode = ${o.mode === 'generic' ? 'force_generic_plan' : 'force_custom_plan'}`;
  pool.on('connect', (client) => {
    let reported = false;
    client.on('error', (err) => {
      if (reported) return;
      reported = true;
      o.holder.log.warn({ err: errSummary(err) }, 'PostgreSQL connection lost; it leaves the pool');
    });
    client.query(setMode).catch(() => undefined);
  });
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    await o.ensureSchema();
    return withPreparedStatements(await connect(), o.names, o.mode);
  };
  return pool;
}

/** Drops a test schema (PostgreSQL) — used by the test helper only. */
export async function dropPgSchema(url: string, schema: string) {
  await statementOnItsOwn(url, schema, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
