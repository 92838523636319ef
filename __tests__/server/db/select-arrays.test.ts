/**
 * selectArrays (server/db/dialect.ts): a select answered as arrays, on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL, alongside the same statement answered as objects.
 */
import { sql } from 'kysely';
import { createDb, dropPgSchema, selectArrays, type Db } from '../../../server/db/dialect';

const PG_URL = process.env.TEST_DATABASE_URL;

describe('selectArrays', () => {
  let h: Db;
  let schema: string | undefined;

  beforeAll(async () => {
    schema = PG_URL ? `t_arrays_${process.pid}_${Date.now().toString(36)}` : undefined;
    h = createDb(PG_URL ?? 'sqlite::memory:', { pgSchema: schema });
    await sql`create table item (id ${sql.raw(PG_URL ? 'bigserial' : 'integer')} primary key, name varchar(20) not null, note varchar(20), at bigint)`.execute(
      h.db,
    );
    for (const [name, note, at] of [
      ['一', null, 1_700_000_000_000],
      ['two', 'x', null],
      ['三', 'y', 5],
    ] as const)
      await sql`insert into item (name, note, at) values (${name}, ${note}, ${at})`.execute(h.db);
  });

  afterAll(async () => {
    await h.close();
    if (PG_URL && schema) await dropPgSchema(PG_URL, schema);
  });

  const items = () =>
    (h.db as any).selectFrom('item').select(['id', 'name', 'note', 'at']).where('id', '>', 0).orderBy('id', 'desc');

  it('answers rows as arrays in the order of the select list, values typed as usual (int8 as numbers)', async () => {
    const rows = await selectArrays<[number, string, string | null, number | null]>(h.db, items());
    expect(rows).toEqual([
      [3, '三', 'y', 5],
      [2, 'two', 'x', null],
      [1, '一', null, 1_700_000_000_000],
    ]);
  });

  it('leaves the same statement answering objects when not marked, again and again', async () => {
    for (let i = 0; i < 7; i++) {
      // past PostgreSQL's five custom plans: the prepared statements stay apart
      expect((await items().execute())[0]).toEqual({ id: 3, name: '三', note: 'y', at: 5 });
      expect((await selectArrays(h.db, items()))[0]).toEqual([3, '三', 'y', 5]);
    }
  });

  it('runs inside a transaction, on its connection', async () => {
    await h.db.transaction().execute(async (trx) => {
      await sql`insert into item (name) values (${'四'})`.execute(trx);
      const rows = await selectArrays<[number, string]>(
        trx,
        (trx as any).selectFrom('item').select(['id', 'name']).orderBy('id', 'desc').limit(1),
      );
      expect(rows).toEqual([[4, '四']]);
      await sql`delete from item where id = 4`.execute(trx);
    });
  });

  it('answers an empty list for no rows', async () => {
    expect(await selectArrays(h.db, items().where('id', '>', 100))).toEqual([]);
  });
});
