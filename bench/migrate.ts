/**
 * `node -r ./bench/register.js bench/migrate.ts --db sqlite|pg|both`
 *
 * Brings the bench databases up to the latest migration (indexes added after the data set was built)
 * without rebuilding the rows, then refreshes the planner statistics.
 */
import { sql } from 'kysely';
import { createDb } from '../server/db/dialect';
import { migrateToLatest } from '../server/db/migrate';
import { log, parseFlags, PG_SCHEMA, PG_URL, SQLITE_FILE, strFlag } from './lib/args';

async function migrate(kind: 'sqlite' | 'pg') {
  const h = createDb(kind === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL, {
    pgSchema: kind === 'pg' ? PG_SCHEMA : undefined,
  });
  try {
    const t0 = Date.now();
    await migrateToLatest(h.db);
    log(`${kind}: migrations in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = Date.now();
    await sql`analyze`.execute(h.db);
    log(`${kind}: ANALYZE in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  } finally {
    await h.close();
  }
}

async function main() {
  const which = strFlag(parseFlags(), 'db', 'both');
  for (const kind of ['sqlite', 'pg'] as const) if (which === kind || which === 'both') await migrate(kind);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
