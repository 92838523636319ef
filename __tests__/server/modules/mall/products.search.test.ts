import { sql } from 'kysely';
import { likePrefix } from '../../../../server/db/sql';
import { ftsString, trigramKeyword } from '../../../../server/modules/mall/products.repository';
import { build, dbKind, type TestApp } from '../../helpers';

const COVER = '/uploads/demo/cover.webp';

const NAMES = [
  '不锈钢保温杯',
  '保温杯·经典款 1',
  '保温饭盒',
  '高山乌龙茶礼盒',
  'Thermos CUP 500ml',
  'thermos cup',
  '100% 纯棉',
  '100%纯棉 T恤',
  '1000 纯棉',
  '50_50 混纺',
  '5050 混纺',
  '说"好"的杯子',
  '说好的杯子',
  "O'Neil 杯",
  'a\\b 反斜杠',
  'ab 反斜杠',
  'ÉCLAIR 礼盒',
  'éclair 礼盒',
  'ΑΒΓ 希腊',
  'αβγ 希腊',
  '🍵茶杯🍵',
  'NEAR AND OR NOT',
  'x* ^y -z (w) {v}: u',
];

/**
 * Keywords of 1, 2 and 3+ characters: Chinese, mixed case, LIKE's wildcards (% _ \), FTS5's syntax
 * (" * ^ - : ( ) { } NEAR AND OR NOT), quotes, an emoji (two UTF-16 units, one character).
 */
const KEYWORDS = [
  '杯',
  '保温',
  '保温杯',
  '温杯·经',
  '乌龙茶礼盒',
  '不存在的词',
  'c',
  'cup',
  'CUP',
  'Thermos cup',
  'hermos C',
  '%',
  '0%',
  '100%',
  '%纯棉',
  '_',
  '0_5',
  '50_50',
  '"',
  '"好',
  '说"好"',
  '""',
  "'",
  "O'Neil",
  "x' or 1=1 --",
  '\\',
  'a\\b',
  '\\b 反',
  'éclair',
  'ÉCL',
  'αβγ',
  'ΑΒΓ 希',
  '🍵',
  '🍵茶',
  '茶杯🍵',
  'NEAR',
  'AND OR',
  'x*',
  '^y -z',
  '(w) {v}: u',
];

describe(`product name search (${dbKind})`, () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    const now = t.clock.now();
    await t.db.db
      .insertInto('product')
      .values(NAMES.map((name) => ({ name, kind: 1, asset: 'USDT', created_at: now, updated_at: now })))
      .execute();
  });
  afterAll(() => t.close());

  /** The ids product/list answers for `name` (every page). */
  async function listed(name: string): Promise<{ ids: number[]; total: number }> {
    const ids: number[] = [];
    let total = -1;
    for (let page = 1; ; page++) {
      const r = await t.call('GET', '/v1/admin/product/list', { token, query: { name, page, size: 100, sort: 'id' } });
      expect(r.code).toBe(200);
      total = r.data.total;
      ids.push(...r.data.list.map((p: { id: number }) => p.id));
      if (r.data.list.length < 100) break;
    }
    return { ids: ids.sort((a, b) => a - b), total };
  }

  /** What the plain LIKE of before answers on this database (SQLite's LIKE folds ASCII case only). */
  async function byLike(name: string): Promise<number[]> {
    const rows = await t.db.db
      .selectFrom('product')
      .select('id')
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`name like ${`%${likePrefix(name)}`} escape '\\'`)
      .orderBy('id')
      .execute();
    return rows.map((r) => Number(r.id));
  }

  /** The names containing `name` exactly as typed (what LIKE gives for text without cased letters). */
  async function byIncludes(name: string): Promise<number[]> {
    const rows = await t.db.db.selectFrom('product').select(['id', 'name']).where('deleted_at', 'is', null).execute();
    return rows
      .filter((r) => r.name.includes(name))
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
  }

  it('finds by keywords of 1, 2 and 3+ characters exactly what LIKE finds', async () => {
    for (const k of KEYWORDS) {
      const like = await byLike(k);
      const got = await listed(k);
      expect({ k, ids: got.ids, total: got.total }).toEqual({ k, ids: like, total: like.length });
      if (k.toLowerCase() === k.toUpperCase()) expect({ k, ids: like }).toEqual({ k, ids: await byIncludes(k) });
    }
    // A few by hand, so the comparison above is not between two empty answers.
    expect((await listed('保温杯')).total).toBe(2);
    expect((await listed('%纯棉')).total).toBe(1);
    expect((await listed('0_5')).total).toBe(1);
    expect((await listed('说"好"')).total).toBe(1);
    expect((await listed('a\\b')).total).toBe(1);
    expect((await listed('茶杯🍵')).total).toBe(1);
    // SQLite's LIKE folds ASCII case, PostgreSQL's does not; neither folds É/é or Α/α.
    expect((await listed('CUP')).total).toBe(dbKind === 'sqlite' ? 2 : 1);
    expect((await listed('éclair')).total).toBe(1);
    expect((await listed('αβγ')).total).toBe(1);
  });

  it('knows which keywords go to the trigram index, and quotes them as one FTS5 phrase', () => {
    expect(['杯', '保温', 'ab', '🍵茶', '🍵'].map(trigramKeyword)).toEqual([false, false, false, false, false]);
    expect(['保温杯', 'abc', '🍵茶杯', '%_"'].map(trigramKeyword)).toEqual([true, true, true, true]);
    expect(trigramKeyword('ab\0c')).toBe(false);
    expect(ftsString('说"好"')).toBe('"说""好"""');
  });

  it('finds a renamed product by its new name only, and a deleted one not at all', async () => {
    const post = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/product', { token, body });
    const base = { kind: 1, asset: 'USDT', cover: COVER, gallery: [], detail: '', sort: 0 };
    const made = await post({ ...base, name: '旧名字保温壶' });
    expect(made.code).toBe(200);
    const id = made.data.id as number;
    expect((await listed('旧名字')).ids).toEqual([id]);
    expect((await post({ ...base, id, name: '新名字暖水瓶' })).code).toBe(200);
    expect((await listed('旧名字')).ids).toEqual([]);
    expect((await listed('保温壶')).ids).toEqual([]);
    expect((await listed('新名字')).ids).toEqual([id]);
    expect((await listed('暖水瓶')).ids).toEqual([id]);
    // Saved again with the same name: still found once.
    expect((await post({ ...base, id, name: '新名字暖水瓶', sort: 3 })).code).toBe(200);
    expect((await listed('新名字')).ids).toEqual([id]);

    const r = await t.call('POST', '/v1/admin/product/operate', { token, body: { ids: [id], action: 'delete' } });
    expect(r.data.succeeded).toEqual([id]);
    expect((await listed('新名字')).ids).toEqual([]);
    expect((await listed('新名字')).total).toBe(0);

    if (dbKind === 'sqlite') {
      // The FTS5 table follows every write of product.name, deletes of the row included.
      const fts = async (k: string) =>
        (
          await sql<{
            id: number;
          }>`select rowid as id from product_name_fts where product_name_fts match ${ftsString(k)}`.execute(t.db.db)
        ).rows.map((x) => Number(x.id));
      expect(await fts('新名字')).toEqual([id]); // soft-deleted: the list's deleted_at filter leaves it out
      expect(await fts('旧名字')).toEqual([]);
      await t.db.db.deleteFrom('product').where('id', '=', id).execute();
      expect(await fts('新名字')).toEqual([]);
      // integrity-check with rank 1 compares the index with the product table itself.
      await sql`insert into product_name_fts (product_name_fts, rank) values ('integrity-check', 1)`.execute(t.db.db);
    }
  });

  it('answers a keyword of 3+ characters from the trigram index', async () => {
    const like = `%${likePrefix('保温杯')}`;
    if (dbKind === 'sqlite') {
      const rows = (
        await sql<{ detail: string }>`explain query plan select count(*) from product p where p.deleted_at is null
          and p.id in (select rowid from product_name_fts where product_name_fts match ${ftsString('保温杯')})
          and p.name like ${like} escape '\\'`.execute(t.db.db)
      ).rows;
      const plan = rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/VIRTUAL TABLE INDEX \d+:M/);
      expect(plan).toMatch(/SEARCH p USING INTEGER PRIMARY KEY/);
      return;
    }
    // With sequential scans forbidden the plan shows the index can serve the LIKE (at 25 rows the
    // planner rightly prefers reading the table).
    await t.db.db.connection().execute(async (c) => {
      await sql`set enable_seqscan = off`.execute(c);
      const rows = (
        await sql<Record<string, string>>`explain select count(*) from product p where p.deleted_at is null
          and p.name like ${like} escape '\\'`.execute(c)
      ).rows;
      await sql`reset enable_seqscan`.execute(c);
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/product_name_trgm_idx/);
    });
  });

  it("keeps a name search's exact count per catalog version, and counts again after any product write", async () => {
    const first = await listed('保温');
    expect(first.total).toBe(first.ids.length);
    // A row written behind the services' back moves no version: the kept count does not see it (the
    // page does), which shows the count is the kept one.
    const now = t.clock.now();
    const raw = await t.db.db
      .insertInto('product')
      .values({ name: '保温直接写入', kind: 1, asset: 'USDT', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stale = await listed('保温');
    expect(stale.ids).toHaveLength(first.ids.length + 1);
    expect(stale.total).toBe(first.total);
    // Every write through the services moves it: create, edit, shelf moves, delete.
    const post = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/product', { token, body });
    const base = { kind: 1, asset: 'USDT', cover: COVER, gallery: [], detail: '', sort: 0 };
    const made = await post({ ...base, name: '保温新品' });
    expect(made.code).toBe(200);
    const id = made.data.id as number;
    const after = await listed('保温');
    expect(after.ids).toHaveLength(first.ids.length + 2);
    expect(after.total).toBe(after.ids.length);
    const version = async () =>
      Number((await t.db.db.selectFrom('catalog_version').select('v').executeTakeFirstOrThrow()).v);
    const v0 = await version();
    expect((await post({ ...base, id, name: '保温新品二代' })).code).toBe(200);
    expect(await version()).toBe(v0 + 1);
    const operate = (action: string) =>
      t.call('POST', '/v1/admin/product/operate', { token, body: { ids: [id], action } });
    expect((await operate('offShelf')).data.failed).toHaveLength(1); // already off: no write, no move
    expect(await version()).toBe(v0 + 1);
    expect((await operate('delete')).data.succeeded).toEqual([id]);
    expect(await version()).toBe(v0 + 2);
    const gone = await listed('保温');
    expect(gone.total).toBe(gone.ids.length);
    expect(gone.ids).not.toContain(id);
    await t.db.db.deleteFrom('product').where('id', '=', Number(raw.id)).execute();
  });
});
