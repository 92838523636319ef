/**
 * bulkRows: a batch's rows as one parameter (PostgreSQL: one array per column through unnest; SQLite:
 * one JSON text through json_each), read back in the order given with their types; text that is not
 * well-formed UTF-16 (a lone surrogate) arrives as U+FFFD on both, as a bound text parameter does.
 */
import { sql } from 'kysely';
import { bulkRows } from '../../../server/db/bulk';
import { build, dbKind, type TestApp } from '../helpers';

describe(`bulkRows (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  const read = async (rows: Array<Array<string | number | bigint | null>>) =>
    (
      await sql<{
        a: string | number;
        b: string | null;
      }>`with r(a, b) as (${bulkRows(t.db.db, ['bigint', 'text'], rows)}) select cast(a as text) as a, b from r`.execute(
        t.db.db,
      )
    ).rows.map((r) => [String(r.a), r.b]);

  it('gives the rows back in order, 64-bit integers exact, nulls kept', async () => {
    await expect(
      read([
        [9007199254740993n, '甲'],
        [-3, null],
        [0, 'a"b\\c\n'],
      ]),
    ).resolves.toEqual([
      ['9007199254740993', '甲'],
      ['-3', null],
      ['0', 'a"b\\c\n'],
    ]);
  });

  it('stores a lone surrogate as U+FFFD, never as bytes that are not UTF-8', async () => {
    const [[, text]] = await read([[1, 'x\uD800y']]);
    expect(text).toBe('x\uFFFDy');
    expect(Buffer.from(text!, 'utf8').toString('utf8')).toBe(text);
  });
});
