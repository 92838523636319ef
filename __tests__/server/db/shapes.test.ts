/**
 * ShapedQuery (server/db/shapes.ts): a query built and compiled once per shape and run with each
 * call's values, on SQLite and (with TEST_DATABASE_URL) PostgreSQL; and the check that keeps a shape's
 * key and builder honest under test.
 */
import { CamelCasePlugin, sql, type Kysely } from 'kysely';
import { createDb, dropPgSchema, type Db } from '../../../server/db/dialect';
import { SHAPE_CHECK, ShapedQuery } from '../../../server/db/shapes';

const PG_URL = process.env.TEST_DATABASE_URL;

describe('ShapedQuery', () => {
  let h: Db;
  let schema: string | undefined;
  let db: Kysely<any>;

  beforeAll(async () => {
    schema = PG_URL ? `t_shapes_${process.pid}_${Date.now().toString(36)}` : undefined;
    h = createDb(PG_URL ?? 'sqlite::memory:', { pgSchema: schema });
    db = h.db as Kysely<any>;
    await sql`create table item (id ${sql.raw(PG_URL ? 'bigserial' : 'integer')} primary key, name varchar(20) not null, kind int not null)`.execute(
      db,
    );
    for (const [name, kind] of [
      ['apple', 1],
      ['banana', 2],
      ['cherry', 1],
      ['date', 2],
    ] as const)
      await sql`insert into item (name, kind) values (${name}, ${kind})`.execute(db);
  });

  afterAll(async () => {
    await h.close();
    if (PG_URL && schema) await dropPgSchema(PG_URL, schema);
  });

  interface Shape {
    kind: boolean;
    order: 'asc' | 'desc';
  }
  interface Values {
    kind?: number;
    limit: number;
  }

  /** Counts its builds, so a test can tell a compiled shape was reused. */
  const itemsQuery = (keyOf: (s: Shape) => string = (s) => `${+s.kind}${s.order}`) => {
    let builds = 0;
    const q = new ShapedQuery(keyOf, (b, s: Shape, v: Values) => {
      builds++;
      let query = b.selectFrom('item').select(['id', 'name']);
      if (s.kind) query = query.where('kind', '=', v.kind!);
      return query.orderBy('id', s.order).limit(v.limit);
    });
    return { q, builds: () => builds };
  };

  it('is checked under Jest', () => {
    expect(SHAPE_CHECK).toBe(true);
  });

  it('runs each call with its own values in one compiled text per shape', async () => {
    const { q } = itemsQuery();
    expect(await q.execute(db, { kind: true, order: 'asc' }, { kind: 1, limit: 10 })).toEqual([
      { id: 1, name: 'apple' },
      { id: 3, name: 'cherry' },
    ]);
    expect(await q.execute(db, { kind: true, order: 'asc' }, { kind: 2, limit: 1 })).toEqual([
      { id: 2, name: 'banana' },
    ]);
    expect(await q.execute(db, { kind: false, order: 'desc' }, { limit: 2 })).toEqual([
      { id: 4, name: 'date' },
      { id: 3, name: 'cherry' },
    ]);
    const a = q.compile(db, { kind: true, order: 'asc' }, { kind: 1, limit: 10 });
    const b = q.compile(db, { kind: true, order: 'asc' }, { kind: 2, limit: 1 });
    expect(b.sql).toBe(a.sql);
    expect(a.parameters).toEqual([1, 10]);
    expect(b.parameters).toEqual([2, 1]);
  });

  it('builds a shape with slots once; afterwards only the check builds it (with the values)', () => {
    const { q, builds } = itemsQuery();
    q.compile(db, { kind: true, order: 'asc' }, { kind: 1, limit: 10 });
    expect(builds()).toBe(2); // the slots' build, and the check's
    q.compile(db, { kind: true, order: 'asc' }, { kind: 2, limit: 5 });
    expect(builds()).toBe(3); // the check's only
    q.compile(db, { kind: true, order: 'desc' }, { kind: 2, limit: 5 });
    expect(builds()).toBe(5); // a new shape
  });

  it('refuses a key that misses a structural choice (the check compares with the ordinary build)', () => {
    const { q } = itemsQuery((s) => `${+s.kind}`); // forgets the order
    q.compile(db, { kind: false, order: 'asc' }, { limit: 3 });
    expect(() => q.compile(db, { kind: false, order: 'desc' }, { limit: 3 })).toThrow(
      /compiles otherwise than its ordinary build/,
    );
  });

  it('refuses a builder that looks at a value instead of binding it', () => {
    const q = new ShapedQuery(
      () => '',
      (b, _s: null, v: { name: string }) => b.selectFrom('item').select('id').where('name', 'like', `${v.name}%`),
    );
    expect(() => q.compile(db, null, { name: 'ap' })).toThrow(/compiles otherwise than its ordinary build/);
  });

  it('refuses a builder that tests a value, once a test passes the falsy value (a slot is always truthy)', () => {
    const q = new ShapedQuery(
      () => '',
      (b, _s: null, v: { name: string }) => {
        const query = b.selectFrom('item').select('id');
        return v.name ? query.where('name', '=', v.name) : query;
      },
    );
    expect(q.compile(db, null, { name: 'apple' }).parameters).toEqual(['apple']);
    expect(() => q.compile(db, null, { name: '' })).toThrow(/compiles otherwise than its ordinary build/);
  });

  it('runs without the check (as the server does): one build per shape, each call its own values', async () => {
    let builds = 0;
    const q = new ShapedQuery(
      (s: Shape) => `${+s.kind}${s.order}`,
      (b, s: Shape, v: Values) => {
        builds++;
        let query = b.selectFrom('item').select('name');
        if (s.kind) query = query.where('kind', '=', v.kind!);
        return query.orderBy('id', s.order).limit(v.limit);
      },
      false,
    );
    expect(await q.execute(db, { kind: true, order: 'desc' }, { kind: 1, limit: 5 })).toEqual([
      { name: 'cherry' },
      { name: 'apple' },
    ]);
    expect(await q.execute(db, { kind: true, order: 'desc' }, { kind: 2, limit: 1 })).toEqual([{ name: 'date' }]);
    expect(await q.execute(db, { kind: false, order: 'asc' }, { limit: 1 })).toEqual([{ name: 'apple' }]);
    expect(builds).toBe(2);
  });

  it('keeps the 200 shapes used most recently', () => {
    let builds = 0;
    const q = new ShapedQuery(
      (n: number) => String(n),
      (b, n: number, v: { limit: number }) => {
        builds++;
        return b.selectFrom('item').select('id').where('id', '>', n).limit(v.limit);
      },
      false,
    );
    const run = (n: number) => q.compile(db, n, { limit: 1 });
    for (let n = 0; n < 200; n++) run(n); // full: 0 is the oldest
    run(0); // now the most recent
    run(200); // evicts 1, not 0
    expect(builds).toBe(201);
    run(0);
    expect(builds).toBe(201);
    run(1);
    expect(builds).toBe(202);
  });

  it('refuses a handle with Kysely plugins (they would change the text every handle shares)', () => {
    const { q } = itemsQuery();
    expect(() => q.compile(db.withPlugin(new CamelCasePlugin()), { kind: false, order: 'asc' }, { limit: 1 })).toThrow(
      /plugins/,
    );
  });

  it('refuses a call that gives no value for one of its slots', () => {
    const { q } = itemsQuery();
    expect(() => q.compile(db, { kind: true, order: 'asc' }, { limit: 3 })).toThrow(/no value for slot kind/);
  });

  it('keeps the constants a builder binds itself', async () => {
    const q = new ShapedQuery(
      () => '',
      (b, _s: null, v: { limit: number }) =>
        b.selectFrom('item').select('name').where('kind', '=', 2).orderBy('id').limit(v.limit),
    );
    expect(await q.execute(db, null, { limit: 5 })).toEqual([{ name: 'banana' }, { name: 'date' }]);
    expect(q.compile(db, null, { limit: 1 }).parameters).toEqual([2, 1]);
  });
});
