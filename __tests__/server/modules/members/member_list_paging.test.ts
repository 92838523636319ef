/**
 * member/list at scale, in miniature: the honest total of every filter shape (the count tables for
 * phone prefixes, the split count of a digit keyword), and keyset paging (after/before cursors) giving
 * exactly the rows OFFSET paging gives, in every sort, whichever way the page is read (walking the sort
 * order or sorting the filter's matches).
 */
import { MAX_OFFSET } from '../../../../server/db/keyset';
import { memberCountViolations } from '../../../../server/modules/members/counts.repository';
import { build, dbKind, type TestApp } from '../../helpers';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { makeMember, makeZone } from './fixtures';

jest.setTimeout(120_000);

interface Row {
  id: number;
  uid: string;
  phone: string;
  nickname: string;
  zoneId: number | null;
  level: number;
  status: number;
  createdAt: number;
}

describe(`member/list totals and keyset paging (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let zone: number;
  let all: Row[] = [];
  const list = (query: Record<string, unknown>) => t.call('GET', '/v1/admin/member/list', { token, query });

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    zone = await makeZone(t, '分页专区');
    const phones = [
      ...Array.from({ length: 24 }, (_, i) => `138${String(1000 + i).padStart(8, '0')}`),
      ...Array.from({ length: 12 }, (_, i) => `1380${String(5000 + i).padStart(7, '0')}`),
      ...Array.from({ length: 10 }, (_, i) => `139${String(2000 + i).padStart(8, '0')}`),
      ...Array.from({ length: 8 }, (_, i) => `150${String(3000 + i).padStart(8, '0')}`),
    ];
    for (const [i, phone] of phones.entries()) {
      // Some registrations share a millisecond (ties on createdAt), levels and zones vary.
      if (i % 3 !== 0) t.clock.advance(60_000);
      await makeMember(t, {
        phone,
        // Nicknames that look like keywords: "138" and a uid-like 8 digits, outside the phones they match.
        nickname: i === 50 ? '138' : i === 51 ? '13800001' : `会员P${i}`,
        zoneId: i % 4 === 0 ? zone : undefined,
        level: i % 6,
        status: i % 5 === 0 ? 2 : 1,
      });
    }
    const r = await list({ size: 100 });
    all = r.data.list;
    expect(all).toHaveLength(phones.length);
  });
  afterAll(() => t.close());

  const matches = (keyword: string) => (m: Row) =>
    m.nickname === keyword ||
    (keyword.length === 8 && m.uid === keyword) ||
    (/^\d+$/.test(keyword) && m.phone.startsWith(keyword));

  it('keeps member_phone_count equal to the member table', async () => {
    expect(await memberCountViolations(t.db.db)).toEqual([]);
  });

  it('answers the exact total of phone prefixes of every length, nicknames and uids included', async () => {
    const someUid = all.find((m) => m.phone.startsWith('150'))!.uid;
    const cases: Array<Record<string, unknown>> = [
      { keyword: '1' },
      { keyword: '13' },
      { keyword: '138' },
      { keyword: '1380' },
      { keyword: '13800' },
      { keyword: '13800001' },
      { keyword: '139' },
      { keyword: '999' },
      { keyword: all[3].phone },
      { keyword: someUid },
      { keyword: '138', zoneId: zone },
      { keyword: '138', level: 2 },
      { keyword: '138', status: 2, level: 0 },
      { keyword: '1380', zoneId: zone },
      { keyword: '会员P7' },
      { zoneId: zone, status: 1 },
    ];
    for (const q of cases) {
      const want = all.filter(
        (m) =>
          (q.keyword === undefined || matches(String(q.keyword))(m)) &&
          (q.zoneId === undefined || m.zoneId === q.zoneId) &&
          (q.level === undefined || m.level === q.level) &&
          (q.status === undefined || m.status === q.status),
      );
      const r = await list({ ...q, size: 100 });
      expect({ q, code: r.code, total: r.data.total }).toEqual({ q, code: 200, total: want.length });
      expect(r.data.list.map((m: Row) => m.id)).toEqual(want.map((m) => m.id));
    }
  });

  it.each([
    [{}],
    [{ order: 'asc' }],
    [{ sort: 'createdAt', order: 'desc' }],
    [{ sort: 'createdAt', order: 'asc' }],
    [{ sort: 'level', order: 'desc' }],
    [{ sort: 'level', order: 'asc' }],
    [{ keyword: '138' }],
    [{ keyword: '1380', sort: 'createdAt' }],
    [{ keyword: '139', sort: 'level', order: 'asc' }],
    [{ zoneId: 0 }],
    [{ status: 1, sort: 'level' }],
  ])('pages %j by cursor exactly as by page number', async (q) => {
    const query = { ...q } as Record<string, unknown>;
    if (query.zoneId === 0) query.zoneId = zone;
    const ids = await expectCursorPagingMatchesOffset(list, query, 7);
    const sort = (query.sort as string | undefined) ?? 'id';
    const order = (query.order as string | undefined) ?? 'desc';
    const key = (m: Row) => (sort === 'createdAt' ? m.createdAt : sort === 'level' ? m.level : m.id);
    const want = all
      .filter(
        (m) =>
          (query.keyword === undefined || matches(String(query.keyword))(m)) &&
          (query.zoneId === undefined || m.zoneId === query.zoneId) &&
          (query.status === undefined || m.status === query.status),
      )
      .sort((a, b) => (key(a) - key(b) || a.id - b.id) * (order === 'asc' ? 1 : -1));
    expect(ids).toEqual(want.map((m) => m.id));
  });

  it('refuses a page number past MAX_OFFSET rows without a cursor, a bad cursor and two cursors', async () => {
    expect((await list({ page: MAX_OFFSET / 20 + 1, size: 20 })).code).toBe(200);
    const deep = await list({ page: MAX_OFFSET / 20 + 2, size: 20 });
    expect(deep).toMatchObject({ code: 400, msg: expect.stringContaining('页码过大') });
    const withCursor = await list({ page: MAX_OFFSET / 20 + 2, size: 20, after: `${all[5].id}_${all[5].id}` });
    expect(withCursor.code).toBe(200);
    expect(withCursor.data.list[0].id).toBe(all[6].id);
    expect(await list({ after: 'abc' })).toMatchObject({ code: 400, msg: '翻页位置格式不正确' });
    expect(await list({ after: '1_2', before: '3_4' })).toMatchObject({
      code: 400,
      msg: expect.stringContaining('翻页位置'),
    });
  });
});
