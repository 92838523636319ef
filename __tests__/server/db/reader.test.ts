/**
 * The SQLite reader (Db.reader): a read-only connection of its own on the same file, with a small
 * page cache, for exports. It sees what the main connection committed, cannot write, and closing it
 * leaves the main connection working. An in-memory database has none (a second connection would
 * open another, empty database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../../../server/db/dialect';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a reader on a SQLite file sees committed rows, cannot write, and closes on its own', async () => {
  const main = createDb(`sqlite:${path.join(dir, 'a.db')}`);
  try {
    await sql`create table t (id integer primary key, v text)`.execute(main.db);
    await sql`insert into t (v) values ('一'), ('二')`.execute(main.db);
    const reader = main.reader!();
    try {
      const rows = await sql<{ v: string }>`select v from t order by id`.execute(reader.db);
      expect(rows.rows.map((r) => r.v)).toEqual(['一', '二']);
      const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(reader.db);
      expect(Number(cache.rows[0].cache_size)).toBe(-4096);
      // The refusal's message, not toThrow: better-sqlite3's native part keeps the error class of the
      // first test file that loaded it in this worker, an Error of another realm for Jest.
      const refused = await sql`insert into t (v) values ('三')`.execute(reader.db).then(
        () => 'written',
        (err: unknown) => String((err as { message?: string }).message),
      );
      expect(refused).toMatch(/readonly/i);
      // A row committed after the reader opened is seen by its next statement.
      await sql`insert into t (v) values ('四')`.execute(main.db);
      const again = await sql<{ n: number }>`select count(*) as n from t`.execute(reader.db);
      expect(Number(again.rows[0].n)).toBe(3);
    } finally {
      await reader.close();
    }
    const left = await sql<{ n: number }>`select count(*) as n from t`.execute(main.db);
    expect(Number(left.rows[0].n)).toBe(3);
  } finally {
    await main.close();
  }
});

/** How many of this process's file descriptors point at `file`. */
const openFds = (file: string) =>
  fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // closed since the listing
    }
  }).length;

(fs.existsSync('/proc/self/fd') ? test : test.skip)(
  'a reader closed before its first query (an export refused on its input) lets go of the file',
  async () => {
    const file = path.join(dir, 'b.db');
    const main = createDb(`sqlite:${file}`);
    try {
      await sql`create table t (id integer primary key)`.execute(main.db);
      const before = openFds(file);
      // SQLite keeps a closed connection's descriptor while another connection of the process holds
      // locks on the file, and hands it to the next connection it opens: so at most one stays, never one
      // per export (before the fix: one more for every reader closed unused).
      for (let i = 0; i < 5; i++) {
        const unused = main.reader!();
        await unused.close();
        const used = main.reader!();
        await sql`select count(*) from t`.execute(used.db);
        await used.close();
      }
      expect(openFds(file)).toBeLessThanOrEqual(before + 1);
    } finally {
      await main.close();
    }
  },
);

test('an in-memory SQLite database offers no reader', async () => {
  const mem = createDb('sqlite::memory:');
  expect(mem.reader).toBeUndefined();
  await mem.close();
});
