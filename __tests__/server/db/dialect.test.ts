import SQLite from 'better-sqlite3';
import {
  createDb,
  dropPgSchema,
  PREPARED_STATEMENTS_MAX,
  PreparedNames,
  withStatementCache,
} from '../../../server/db/dialect';
import { sql } from 'kysely';

describe('withStatementCache', () => {
  let database: SQLite.Database;
  beforeEach(() => {
    database = new SQLite(':memory:');
    database.exec('create table t (id integer primary key, v text)');
    database.exec("insert into t (v) values ('a'), ('b'), ('c')");
  });
  afterEach(() => {
    if (database.open) database.close();
  });

  it('hands back the statement already prepared for the same text', () => {
    const cached = withStatementCache(database);
    const a = cached.prepare('select v from t where id = ?');
    const b = cached.prepare('select v from t where id = ?');
    expect(b).toBe(a);
    expect(b.get(2)).toEqual({ v: 'b' });
    expect(cached.prepare('select v from t where id = ? ')).not.toBe(a);
  });

  it('prepares a fresh statement while the cached one is still being iterated', () => {
    const cached = withStatementCache(database);
    const text = 'select id from t order by id';
    const outer = cached.prepare(text);
    const seen: number[][] = [];
    for (const row of outer.iterate() as Iterable<{ id: number }>) {
      const inner = cached.prepare(text);
      expect(inner).not.toBe(outer);
      seen.push([row.id, ...(inner.all() as { id: number }[]).map((r) => r.id)]);
    }
    expect(seen).toEqual([
      [1, 1, 2, 3],
      [2, 1, 2, 3],
      [3, 1, 2, 3],
    ]);
    expect(cached.prepare(text)).toBe(outer);
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const cached = withStatementCache(database, 2);
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(one); // 1 is now the most recent
    cached.prepare('select 3'); // evicts 2
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });

  it('serves Kysely on a real connection, writes included', async () => {
    const h = createDb('sqlite::memory:');
    try {
      await sql`create table n (id integer primary key, x integer not null)`.execute(h.db);
      for (let i = 1; i <= 5; i++) await sql`insert into n (x) values (${i})`.execute(h.db);
      const rows = [];
      for (let i = 0; i < 3; i++)
        rows.push((await sql<{ s: number }>`select sum(x) as s from n`.execute(h.db)).rows[0].s);
      expect(rows).toEqual([15, 15, 15]);
    } finally {
      await h.close();
    }
  });
});

describe('PreparedNames (PostgreSQL prepared statements)', () => {
  it('names each data statement once, by a hash of its text, and never DDL or transaction control', () => {
    const names = new PreparedNames();
    const a = names.nameOf('select * from member where id = $1');
    expect(a).toMatch(/^s[0-9a-f]{20}$/);
    expect(names.nameOf('select * from member where id = $1')).toBe(a);
    expect(names.nameOf('select * from member where id = $2')).not.toBe(a);
    expect(names.nameOf('  UPDATE account set available = $1')).toMatch(/^s/);
    expect(names.nameOf('with x as (select 1) select * from x')).toMatch(/^s/);
    for (const text of ['begin', 'commit', 'rollback', 'create table t (id int)', 'set search_path = x', 'savepoint a'])
      expect(names.nameOf(text)).toBeUndefined();
  });

  it('stops naming new texts past PREPARED_STATEMENTS_MAX (they run unprepared)', () => {
    const names = new PreparedNames();
    for (let i = 0; i < PREPARED_STATEMENTS_MAX; i++) expect(names.nameOf(`select ${i}`)).toBeDefined();
    expect(names.nameOf('select -1')).toBeUndefined();
    expect(names.nameOf('select 0')).toBeDefined();
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
(pgUrl ? describe : describe.skip)('PostgreSQL pool', () => {
  it('plans every prepared statement with its values (plan_cache_mode = force_custom_plan)', async () => {
    const schema = `t_plan_${process.pid}`;
    const h = createDb(pgUrl!, { pgSchema: schema, poolSize: 2 });
    try {
      const modes = await Promise.all(
        [0, 1, 2].map(() => sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(h.db)),
      );
      expect(modes.map((m) => m.rows[0].plan_cache_mode)).toEqual(Array(3).fill('force_custom_plan'));
    } finally {
      await h.close();
      await dropPgSchema(pgUrl!, schema);
    }
  });
});
