import SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  createDb,
  dropPgSchema,
  type Db,
  PREPARED_STATEMENTS_MAX,
  PreparedNames,
  withStatementCache,
} from '../../../server/db/dialect';
import {
  executeGenericPlan,
  GENERIC_PLAN,
  readWithGenericPlan,
  withPreparedStatements,
} from '../../../server/db/statements';
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

describe('withPreparedStatements: a generic plan for marked statements', () => {
  /** A client that records what it is sent: texts, and the name when prepared. */
  const recording = (initialMode: 'custom' | 'generic' = 'custom') => {
    const sent: string[] = [];
    const client = {
      query: (arg: unknown) => {
        const q = typeof arg === 'string' ? { text: arg } : (arg as { name?: string; text: string });
        sent.push(q.name ? `named ${q.text}` : q.text);
        return Promise.resolve({ rows: [] });
      },
    };
    return {
      sent,
      client: withPreparedStatements(client as unknown as pg.PoolClient, new PreparedNames(), initialMode),
    };
  };
  const SET_GENERIC = 'set plan_cache_mode = force_generic_plan';
  const SET_CUSTOM = 'set plan_cache_mode = force_custom_plan';
  const marked = `${GENERIC_PLAN}update w set s = $1 where id = $2`;

  it('switches to a generic plan before a marked statement and back before the next other one, once each', async () => {
    const { sent, client } = recording();
    await client.query(marked, [1, 2]);
    await client.query(marked, [1, 3]);
    await client.query('select * from w where id = $1', [1]);
    await client.query('select * from w where id = $1', [2]);
    expect(sent).toEqual([
      SET_GENERIC,
      `named ${marked}`,
      `named ${marked}`,
      SET_CUSTOM,
      'named select * from w where id = $1',
      'named select * from w where id = $1',
    ]);
  });

  it('sets the mode again after a transaction that set it (a rollback undoes a SET)', async () => {
    const { sent, client } = recording();
    await client.query('begin', []);
    await client.query(marked, [1, 2]);
    await client.query('rollback', []);
    await client.query(marked, [1, 3]);
    expect(sent).toEqual(['begin', SET_GENERIC, `named ${marked}`, 'rollback', SET_GENERIC, `named ${marked}`]);
  });

  it('switches back before a query object too (a stream reads through a cursor)', async () => {
    const { sent, client } = recording();
    await client.query(marked, [1, 2]);
    await (client.query as (q: unknown) => Promise<unknown>)({ text: 'select * from w where id > $1', values: [0] });
    expect(sent).toEqual([SET_GENERIC, `named ${marked}`, SET_CUSTOM, 'select * from w where id > $1']);
  });

  it('on a connection made generic (the pool for marked statements), sends marked ones as they are', async () => {
    const { sent, client } = recording('generic');
    await client.query(marked, [1, 2]);
    await client.query('select * from w where id = $1', [1]);
    expect(sent).toEqual([`named ${marked}`, SET_CUSTOM, 'named select * from w where id = $1']);
  });

  it('readWithGenericPlan takes only a select without a row lock (the generic pool never waits on a writer)', async () => {
    const db = createDb('sqlite::memory:').db;
    const refused = 'readWithGenericPlan takes a select without a row lock';
    for (const text of [
      'update w set s = 1',
      'select * from w for update',
      'select * from w for no key update',
      'select * from w for share',
    ]) {
      expect(() => readWithGenericPlan(db, { sql: text, parameters: [], query: {} } as never)).toThrow(refused);
    }
    expect((await readWithGenericPlan(db, sql<{ one: number }>`select 1 as one`.compile(db))).rows).toEqual([
      { one: 1 },
    ]);
    await db.destroy();
  });

  it('leaves statements alone while the mode is already right', async () => {
    const { sent, client } = recording();
    await client.query('begin', []);
    await client.query('select 1 from w where id = $1', [1]);
    await client.query('commit', []);
    expect(sent).toEqual(['begin', 'named select 1 from w where id = $1', 'commit']);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
(pgUrl ? describe : describe.skip)('PostgreSQL pool', () => {
  /** A handle on a schema of its own for `use`, closed and dropped after. */
  async function onSchema(name: string, poolSize: number, use: (h: Db) => Promise<void>) {
    const schema = `t_${name}_${process.pid}`;
    const h = createDb(pgUrl!, { pgSchema: schema, poolSize });
    try {
      await use(h);
    } finally {
      await h.close();
      await dropPgSchema(pgUrl!, schema);
    }
  }

  it('plans every prepared statement with its values (plan_cache_mode = force_custom_plan)', () =>
    onSchema('plan', 2, async (h) => {
      const modes = await Promise.all(
        [0, 1, 2].map(() => sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(h.db)),
      );
      expect(modes.map((m) => m.rows[0].plan_cache_mode)).toEqual(Array(3).fill('force_custom_plan'));
    }));

  it('plans a statement marked GENERIC_PLAN generically, and the next ones with their values again', () =>
    onSchema('generic', 1, async (h) => {
      const mode = sql<{ m: string }>`select current_setting('plan_cache_mode') as m`;
      expect((await executeGenericPlan(h.db, mode)).rows[0].m).toBe('force_generic_plan');
      expect((await mode.execute(h.db)).rows[0].m).toBe('force_custom_plan');
      await h.db
        .transaction()
        .execute(async (trx) => {
          expect((await executeGenericPlan(trx, mode)).rows[0].m).toBe('force_generic_plan');
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect((await executeGenericPlan(h.db, mode)).rows[0].m).toBe('force_generic_plan');
      expect((await mode.execute(h.db)).rows[0].m).toBe('force_custom_plan');
    }));

  it('runs a read outside a transaction on a connection that stays generic, inside one on its own', () =>
    onSchema('genpool', 1, async (h) => {
      const pid = sql<{
        pid: number;
        m: string;
      }>`select pg_backend_pid() as pid, current_setting('plan_cache_mode') as m`;
      const main = (await pid.execute(h.db)).rows[0];
      const read = (await readWithGenericPlan(h.db, pid.compile(h.db))).rows[0];
      // Another backend, already generic: the main pool's one connection was never switched.
      expect(read.pid).not.toBe(main.pid);
      expect(read.m).toBe('force_generic_plan');
      expect((await pid.execute(h.db)).rows[0]).toEqual(main);
      await h.db.transaction().execute(async (trx) => {
        const inTrx = (await pid.execute(trx)).rows[0].pid;
        expect((await readWithGenericPlan(trx, pid.compile(trx))).rows[0]).toEqual({
          pid: inTrx,
          m: 'force_generic_plan',
        });
      });
    }));
});
