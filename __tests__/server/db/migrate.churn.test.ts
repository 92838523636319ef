/**
 * Migrations at start while other schemas of the same database come and go (Jest workers, bench sets,
 * a second console on one database): Kysely's own introspection read every schema's tables and failed
 * with 'schema "…" does not exist' when one was dropped under it. The Migrator now looks only at its own
 * schema (server/db/migrate.ts).
 */
import pg from 'pg';
import { createDb, dropPgSchema, type Db } from '../../../server/db/dialect';
import { migrateToLatest } from '../../../server/db/migrate';
import { PG_URL } from '../helpers';

const describeOnPg = PG_URL ? describe : describe.skip;

describeOnPg('migrations while other schemas are dropped (needs TEST_DATABASE_URL)', () => {
  const schema = `t_churn_${process.pid}_${Date.now().toString(36)}`;
  let handle: Db;
  beforeAll(async () => {
    handle = createDb(PG_URL!, { pgSchema: schema, poolSize: 2 });
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await dropPgSchema(PG_URL!, schema);
  });

  it('checks its own schema only, so a schema dropped meanwhile does not fail it', async () => {
    const churner = new pg.Client({ connectionString: PG_URL });
    await churner.connect();
    let stop = false;
    let churned = 0;
    const churn = (async () => {
      while (!stop) {
        const other = `${schema}_other${churned++ % 4}`;
        await churner.query(`create schema ${other}`);
        await churner.query(`create table ${other}.t (id bigserial primary key, v int)`);
        await churner.query(`drop schema ${other} cascade`);
      }
    })();
    try {
      // The schema is up to date: each call is the Migrator's checks and its lock, a few statements.
      // Unfixed, about one in ten introspections failed under such churn: 80 calls miss it ~never.
      for (let i = 0; i < 80; i++) await migrateToLatest(handle.db);
    } finally {
      stop = true;
      await churn;
      await churner.end();
    }
    expect(churned).toBeGreaterThan(20);
  });
});
