/**
 * The CSV made from PostgreSQL's own CSV (server/export/csvCopy.ts, server/db/pgCopy.ts) must be the
 * batch writer's bytes exactly: checked on PostgreSQL's real COPY output when TEST_DATABASE_URL is set,
 * and everywhere on the same rows encoded as PostgreSQL encodes them, cut into chunks at every byte.
 */
import { PassThrough } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { createDb, dropPgSchema, selectArrays, type Db } from '../../../server/db/dialect';
import { copyCsv, COPY_CONNECTIONS, copyStatement, inlineParameters, pgLiteral } from '../../../server/db/pgCopy';
import { keysetBatches, writeExport, type ExportSpec } from '../../../server/export/export';
import { PG_URL } from '../helpers';
import { batchSpec, chunked, columns, FIELDS, pgCsv, ROWS, sheetXml, type Row } from './copyRows';
import { collect } from './helpers';

async function csvOf(spec: ExportSpec<Row>): Promise<string> {
  const out = new PassThrough();
  const body = collect(out);
  await writeExport(spec, 'csv', out);
  return body().toString('utf8');
}

describe('pgLiteral and inlineParameters', () => {
  it('writes values as literals whatever standard_conforming_strings is', () => {
    expect(pgLiteral(null)).toBe('NULL');
    expect(pgLiteral(undefined)).toBe('NULL');
    expect(pgLiteral(12)).toBe('12');
    expect(pgLiteral(-12)).toBe('(-12)');
    expect(pgLiteral(12345678901234567890n)).toBe('12345678901234567890');
    expect(pgLiteral(-5n)).toBe('(-5)');
    expect(pgLiteral(true)).toBe('true');
    expect(pgLiteral("it's '; drop table x; --")).toBe("E'it''s ''; drop table x; --'");
    expect(pgLiteral("back\\slash\\' or true --")).toBe("E'back\\\\slash\\\\'' or true --'");
  });

  it('refuses what it cannot write safely', () => {
    expect(() => pgLiteral('a\0b')).toThrow(/NUL/);
    expect(() => pgLiteral(Number.NaN)).toThrow(RangeError);
    expect(() => pgLiteral(1.5)).toThrow(RangeError);
    expect(() => pgLiteral(2 ** 53)).toThrow(RangeError);
    expect(() => pgLiteral([1, 2])).toThrow(TypeError);
    expect(() => pgLiteral(new Date())).toThrow(TypeError);
    expect(() => pgLiteral({})).toThrow(TypeError);
  });

  it('replaces placeholders only outside quotes, and refuses what it cannot read as PostgreSQL would', () => {
    expect(
      inlineParameters('select $1, $2, $10 from "t$1" where x = \'$2\'', [1, 'a', 3, 4, 5, 6, 7, 8, 9, "o'k"]),
    ).toBe(`select 1, E'a', E'o''k' from "t$1" where x = '$2'`);
    expect(inlineParameters(`select 'it''s $1', "a""$1" , $1`, [7])).toBe(`select 'it''s $1', "a""$1" , 7`);
    expect(inlineParameters('select -$1, $2', [5, -6])).toBe('select -5, (-6)');
    expect(() => inlineParameters('/* a */ select $1', [5])).toThrow(/comment/);
    expect(() => inlineParameters('select 1 -- c\r, $1', [5])).toThrow(/comment/);
    expect(inlineParameters('select -$1', [-5])).toBe('select -(-5)');
    expect(() => inlineParameters('select $2', [1])).toThrow(/no value/);
    expect(() => inlineParameters('select $0', [1])).toThrow(/no value/);
    expect(() => inlineParameters('select $$x$$', [])).toThrow(/not a placeholder/);
    expect(() => inlineParameters("select 'open", [])).toThrow(/unterminated/);
    expect(() => inlineParameters('select /* open', [])).toThrow(/comment/);
    expect(() => inlineParameters("select E'\\'' , $1", [1])).toThrow(/escape or Unicode/);
    expect(() => inlineParameters("select U&'d' , $1", [1])).toThrow(/escape or Unicode/);
    expect(inlineParameters("select x like $1 escape '\\'", ['a%'])).toBe("select x like E'a%' escape '\\'");
  });
});

describe('CSV from PostgreSQL-style CSV', () => {
  const expected = csvOf(batchSpec(ROWS));
  const bytes = Buffer.from(pgCsv(ROWS));

  it('gives the batch writer bytes, in one chunk or cut anywhere', async () => {
    const want = await expected;
    expect(want).toContain("'=SUM(A1)"); // the rows do reach the careful paths
    expect(want).toContain('"say ""hi"""');
    const copyOf = (cuts: number[]): ExportSpec<Row> => ({
      ...batchSpec([]),
      copy: { fields: FIELDS, chunks: chunked(bytes, cuts) },
    });
    expect(await csvOf(copyOf([]))).toBe(want);
    for (let cut = 1; cut < bytes.length; cut++) expect(await csvOf(copyOf([cut]))).toBe(want);
    const everyByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(await csvOf(copyOf(everyByte))).toBe(want);
  });

  it('refuses rows that are not its fields', async () => {
    const spec = (text: string): ExportSpec<Row> => ({
      ...batchSpec([]),
      copy: { fields: FIELDS, chunks: chunked(Buffer.from(text), []) },
    });
    await expect(csvOf(spec('1,2,x,a,b\n'))).rejects.toThrow(/not 6 fields/);
    await expect(csvOf(spec('1,2,x,a,b,c,d\n'))).rejects.toThrow(/not 6 fields/);
    await expect(csvOf(spec('1,2,x,a,b,c'))).rejects.toThrow(/inside a row/);
    await expect(csvOf(spec('1x,2,x,a,b,c\n'))).rejects.toThrow(/bad integer/);
    await expect(csvOf(spec('99999999999999999,2,x,a,b,c\n'))).rejects.toThrow(/does not fit/);
  });
});

(PG_URL ? describe : describe.skip)('CSV from PostgreSQL COPY', () => {
  const schema = `t_${process.pid}_copy_${Date.now().toString(36)}`;
  let db: Db;
  let k: Kysely<any>;

  beforeAll(async () => {
    db = createDb(PG_URL!, { pgSchema: schema });
    k = db.db as unknown as Kysely<any>;
    await sql`create table t (id int8 primary key, n int8, code text, a text, b text, c text)`.execute(k);
    await k
      .insertInto('t')
      .values(ROWS.map(([id, n, code, a, b, c]) => ({ id, n, code, a, b, c })))
      .execute();
  });

  afterAll(async () => {
    await db.close();
    await dropPgSchema(PG_URL!, schema);
  });

  const source = () => ({ url: PG_URL!, pgSchema: schema });
  const select = () =>
    k
      .selectFrom('t')
      .select(['id', 'n', 'code', 'a', 'b', 'c'])
      .where('a', 'is distinct from', "it's")
      .where('id', '<', 995);

  it('gives the batch writer bytes on the same rows, values inlined', async () => {
    const batchesOf = () =>
      keysetBatches(
        (after, limit) => {
          let q = select();
          if (after !== null) q = q.where('id', '<', after);
          return selectArrays<Row>(k, q.orderBy('id', 'desc').limit(limit));
        },
        (r) => r[0],
        4,
      );
    const batches: ExportSpec<Row> = { title: '测试', columns, batches: batchesOf() };
    const want = await csvOf(batches);
    expect(want.split('\r\n').length).toBeGreaterThan(10);
    const query = select().orderBy('id', 'desc').compile();
    expect(query.parameters).toEqual(["it's", 995]);
    const fromCopy = (): ExportSpec<Row> => ({
      ...batchSpec([]),
      copy: { fields: FIELDS, chunks: () => copyCsv(source(), copyStatement(query)) },
    });
    expect(await csvOf(fromCopy())).toBe(want);
    // The xlsx from the same COPY holds the batch writer's sheet (server/export/xlsxCopy.ts).
    const xlsxOf = async (spec: ExportSpec<Row>) => {
      const out = new PassThrough();
      const body = collect(out);
      await writeExport(spec, 'xlsx', out);
      return sheetXml(body());
    };
    const sheet = await xlsxOf({ ...batches, batches: batchesOf() });
    expect(sheet).toContain('_x005F_x0041_');
    expect(await xlsxOf(fromCopy())).toBe(sheet);
  });

  /** Every value copyCsv inlines read back, on a connection whatever its standard_conforming_strings. */
  it('reads a literal back exactly as it was given, standard_conforming_strings on or off', async () => {
    const tricky = "a'b\\c''d\\' or true -- $1 \"e\" 中文";
    const off = `${PG_URL!}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c standard_conforming_strings=off')}`;
    for (const url of [PG_URL!, off]) {
      const chunks: Buffer[] = [];
      // The query's own `'\\'` (as `escape '\\'` is written) must stay one backslash before the next value.
      const query = {
        sql: "select $1::text, $2::int8, -$2, '\\' as b, $3::text",
        parameters: [tricky, -5, "', current_user, '"],
      };
      for await (const c of copyCsv({ url }, copyStatement(query))) chunks.push(c);
      expect(Buffer.concat(chunks).toString('utf8')).toBe(
        `"${tricky.replaceAll('"', '""')}",-5,5,\\,"', current_user, '"\n`,
      );
    }
  });

  /** The connections of this test's schema (copyCsv names its connection after it) that ran a COPY. */
  const copying = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where application_name = ${schema} and query ilike 'copy%'`.execute(k)
      ).rows[0].n,
    );
  const noneCopying = async () => {
    for (let i = 0; i < 100 && (await copying()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    return copying();
  };

  it('closes its connection when the reader stops early, and PostgreSQL ends the COPY', async () => {
    const big = { sql: `select g, repeat('x', 500) from generate_series(1, 2000000) g`, parameters: [] };
    for await (const chunk of copyCsv(source(), copyStatement(big))) {
      expect(chunk.length).toBeGreaterThan(0);
      expect(await copying()).toBe(1);
      break;
    }
    expect(await noneCopying()).toBe(0);
  });

  it('stops when its signal aborts, before the first row (PostgreSQL 14+) or after', async () => {
    const version = Number(
      (await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(k)).rows[0].v,
    );
    if (version >= 140000) {
      const slow = copyStatement({ sql: 'select pg_sleep(30), g from generate_series(1, 2) g', parameters: [] });
      const before = new AbortController();
      const t0 = Date.now();
      const firstRow = (async () => {
        for await (const _ of copyCsv(source(), slow, before.signal)) return 'row';
        return 'end';
      })();
      for (let i = 0; i < 250 && (await copying()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await copying()).toBe(1);
      before.abort();
      await expect(firstRow).rejects.toThrow();
      expect(await noneCopying()).toBe(0);
      expect(Date.now() - t0).toBeLessThan(15_000);
    }

    const midway = new AbortController();
    let bytes = 0;
    await expect(
      (async () => {
        const big = { sql: `select g, repeat('x', 500) from generate_series(1, 2000000) g`, parameters: [] };
        for await (const c of copyCsv(source(), copyStatement(big), midway.signal)) {
          bytes += c.length;
          midway.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(bytes).toBeGreaterThan(0);
    expect(await noneCopying()).toBe(0);
  });

  it.each(['csv', 'xlsx'] as const)(
    'stops the COPY when the %s it writes goes away (the download left)',
    async (format) => {
      const big = copyStatement({
        sql: `select g, g, 'x', repeat('y', 300), 'z', 'w' from generate_series(1, 2000000) g`,
        parameters: [],
      });
      const out = new PassThrough();
      let seen = 0;
      out.on('data', (c: Buffer) => {
        seen += c.length;
        if (seen > 1_000_000) out.destroy();
      });
      const spec: ExportSpec<Row> = {
        ...batchSpec([]),
        copy: { fields: FIELDS, chunks: (signal) => copyCsv(source(), big, signal) },
      };
      const rows = await writeExport(spec, format, out);
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(2_000_000);
      expect(await noneCopying()).toBe(0);
    },
  );

  it('opens at most COPY_CONNECTIONS at once; the next waits for one to close', async () => {
    const big = { sql: `select g, repeat('x', 500) from generate_series(1, 2000000) g`, parameters: [] };
    const readers = Array.from({ length: COPY_CONNECTIONS + 1 }, () =>
      copyCsv(source(), copyStatement(big))[Symbol.asyncIterator](),
    );
    const firsts = readers.slice(0, COPY_CONNECTIONS).map((r) => r.next());
    await Promise.all(firsts);
    let third = false;
    const last = readers[COPY_CONNECTIONS].next().then((r) => (third = !r.done));
    await new Promise((r) => setTimeout(r, 300));
    expect(third).toBe(false);
    expect(await copying()).toBe(COPY_CONNECTIONS);
    await readers[0].return(undefined);
    await last;
    expect(third).toBe(true);
    for (const r of readers.slice(1)) await r.return(undefined);
    expect(await noneCopying()).toBe(0);
  });

  it('fails when PostgreSQL fails mid-way, and closes its connection', async () => {
    // Past a few MB, so that rows have arrived before the error does.
    const failing = {
      sql: `select repeat('x', 100), 1 / (g - 100000) from generate_series(1, 200000) g`,
      parameters: [],
    };
    let bytes = 0;
    await expect(
      (async () => {
        for await (const c of copyCsv(source(), copyStatement(failing))) bytes += c.length;
      })(),
    ).rejects.toThrow(/division by zero/);
    expect(bytes).toBeGreaterThan(0);
    expect(await noneCopying()).toBe(0);
  });
});
