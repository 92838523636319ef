/**
 * One of the two processes of sqlite-two-processes.test.ts: opens the SQLite file through createDb,
 * as a server process does, says `ready`, waits for a line on stdin, then runs `count` transactions
 * that read a counter and write it back one higher (the shape of every money write: read, check,
 * write), yielding inside each and pausing between them so the two processes interleave. Prints what
 * happened as one JSON line.
 */
import { sql } from 'kysely';
import { createDb } from '../../../server/db/dialect';

const [file, countText, tag] = process.argv.slice(2);
const count = Number(countText);
const { db, close } = createDb(`sqlite:${file}`);

async function run() {
  let ok = 0;
  const errors: string[] = [];
  for (let i = 0; i < count; i++) {
    try {
      await db.transaction().execute(async (trx) => {
        const r = await sql<{ v: number }>`select v from counter where id = 1`.execute(trx);
        const seen = Number(r.rows[0].v);
        await new Promise((resolve) => setImmediate(resolve));
        await sql`update counter set v = ${seen + 1} where id = 1`.execute(trx);
        await sql`insert into entry (tag, seen) values (${tag}, ${seen})`.execute(trx);
      });
      ok += 1;
    } catch (err) {
      errors.push(String((err as { code?: string }).code ?? (err as Error).message));
    }
    // Requests come apart in time: without a gap, the process holding the lock takes it again at
    // once while the other sleeps in its busy handler, and the two would merely run one after another.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  process.stdout.write(`${JSON.stringify({ ok, errors })}\n`);
  await close();
}

process.stdout.write('ready\n');
process.stdin.once('data', () => {
  run().catch((err) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
});
