/**
 * Transfers at scale, in miniature: transfer_stat (per day and per 32-day block, written with each
 * transfer) gives the exact total and per-asset sums of any asset/date filter, part-days included; a
 * member filter is counted directly; keyset paging gives exactly what OFFSET paging gives.
 */
import { SHANGHAI_OFFSET } from '../../../../domain/time';
import { DAY_MS } from '../../../../server/db/dayBuckets';
import { billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { transferStatViolations } from '../../../../server/modules/transfers/transfers.repository';
import { transfer } from '../../../../server/modules/transfers/transfers.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, credit } from '../deposits/fixtures';

jest.setTimeout(120_000);

interface Row {
  id: number;
  from: number;
  to: number;
  asset: string;
  amount: bigint;
  fee: bigint;
  createdAt: number;
}

describe(`transfer totals and keyset paging (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let members: number[];
  let uids: string[];
  let all: Row[];
  const list = (query: Record<string, unknown>) => t.call('GET', '/v1/admin/transfer/list', { token, query });
  const t0 = Date.UTC(2026, 6, 1, 3, 0, 0);

  beforeAll(async () => {
    t = await build();
    t.clock.set(t0);
    members = [];
    for (let i = 0; i < 5; i++) members.push(await addMember(t));
    uids = [];
    for (const id of members)
      uids.push((await t.db.db.selectFrom('member').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid);
    for (const id of members) {
      await credit(t, id, 'USDT', '100000');
      await credit(t, id, 'LZ', '100000');
    }
    // ~100 days of transfers at uneven times (several per day, some days none), across blocks.
    let seed = 11;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor(seed / 65536) % n;
    };
    for (let i = 0; i < 160; i++) {
      t.clock.advance(rnd(3) === 0 ? rnd(4) * DAY_MS : rnd(8 * 3600_000));
      const from = i % 6 === 0 ? 0 : rnd(members.length);
      const to = (from + 1 + rnd(members.length - 1)) % members.length;
      const asset = rnd(3) === 0 ? 'LZ' : 'USDT';
      await transfer(t.app.ctx, {
        fromMemberId: members[from],
        toUid: uids[to],
        asset,
        amount: `${1 + rnd(300)}.${rnd(100)}`,
      });
    }
    // Opposite transfers at once: the counts stay exact under concurrency (PostgreSQL: side by side).
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transfer(t.app.ctx, {
          fromMemberId: members[i % 2],
          toUid: uids[1 - (i % 2)],
          asset: i % 3 ? 'USDT' : 'LZ',
          amount: '1.5',
        }),
      ),
    );
    const rows = await t.db.db
      .selectFrom('transfer')
      .select(['id', 'from_member_id', 'to_member_id', 'asset', 'created_at'])
      .select((eb) => [eb.cast<string>('amount', 'text').as('amount'), eb.cast<string>('fee', 'text').as('fee')])
      .orderBy('id', 'desc')
      .execute();
    all = rows.map((r) => ({
      id: Number(r.id),
      from: Number(r.from_member_id),
      to: Number(r.to_member_id),
      asset: r.asset,
      amount: BigInt(r.amount),
      fee: BigInt(r.fee),
      createdAt: Number(r.created_at),
    }));
    // The clock moved months: log in now (a session ends after 12 idle hours).
    token = await t.login();
  });
  afterAll(() => t.close());

  it('keeps transfer_stat equal to the transfers', async () => {
    expect(all.length).toBe(180);
    expect(await transferStatViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  const fmtDay = (ms: number) => new Date(ms + SHANGHAI_OFFSET).toISOString().slice(0, 10);
  const dayStartOf = (text: string) => Date.parse(`${text}T00:00:00+08:00`);
  const bound = (v: unknown, endOfDay: boolean) => {
    if (v === undefined) return undefined;
    const s = String(v);
    if (/^\d+$/.test(s)) return Number(s);
    if (s.length === 10) return dayStartOf(s) + (endOfDay ? DAY_MS - 1 : 0);
    return Date.parse(`${s.replace(' ', 'T')}+08:00`);
  };
  const wanted = (q: Record<string, unknown>, member?: number) => {
    const start = bound(q.start, false);
    const end = bound(q.end, true);
    return all.filter(
      (r) =>
        (q.asset === undefined || r.asset === q.asset) &&
        (member === undefined || r.from === member || r.to === member) &&
        (start === undefined || r.createdAt >= start) &&
        (end === undefined || r.createdAt <= end),
    );
  };

  it('answers exact totals and per-asset sums for asset, date and member filters, part-days included', async () => {
    const first = all.at(-1)!.createdAt;
    const last = all[0].createdAt;
    const span = last - first;
    const cases: Array<[Record<string, unknown>, number | undefined]> = [
      [{}, undefined],
      [{ asset: 'LZ' }, undefined],
      [{ asset: 'USDT' }, undefined],
      [{ uid: 0 }, 0],
      [{ uid: 3, asset: 'LZ' }, 3],
    ];
    for (let i = 0; i < 10; i++) {
      const a = first + Math.floor((span * i) / 10);
      const b = a + Math.floor(span / (2 + i));
      cases.push([{ start: String(a), end: String(b) }, undefined]);
      cases.push([{ start: fmtDay(a), end: fmtDay(b), ...(i % 2 ? { asset: 'LZ' } : {}) }, undefined]);
      cases.push([{ start: fmtDay(a) }, undefined]);
      cases.push([{ end: `${fmtDay(b)} 12:30:00` }, undefined]);
      cases.push([{ start: fmtDay(a), uid: i % 5 }, i % 5]);
    }
    for (const [q0, m] of cases) {
      const q = { ...q0, ...(m === undefined ? {} : { uid: uids[m] }) };
      const want = wanted(q, m === undefined ? undefined : members[m]);
      const sums = new Map<string, [bigint, bigint]>();
      for (const r of want) {
        const s = sums.get(r.asset) ?? [0n, 0n];
        sums.set(r.asset, [s[0] + r.amount, s[1] + r.fee]);
      }
      const r = await list({ ...q, size: 100 });
      expect({ q, code: r.code, total: r.data.total, count: r.data.sum.count }).toEqual({
        q,
        code: 200,
        total: want.length,
        count: want.length,
      });
      expect({ q, byAsset: r.data.sum.byAsset }).toEqual({
        q,
        byAsset: [...sums.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([asset, [amount, fee]]) => {
            const decimals = asset === 'USDT' ? 6 : 4;
            return { asset, amount: decimal(amount, decimals), fee: decimal(fee, decimals) };
          }),
      });
      expect({ q, ids: r.data.list.map((x: Row) => x.id) }).toEqual({ q, ids: want.slice(0, 100).map((x) => x.id) });
    }
  });

  it.each([
    [{}],
    [{ order: 'asc' }],
    [{ asset: 'LZ' }],
    [{ asset: 'USDT', order: 'asc', sort: 'createdAt' }],
    [{ uid: 0 }],
    [{ uid: 2, order: 'asc' }],
    [{ range: true }],
  ] as Array<[Record<string, unknown>]>)('pages %j by cursor exactly as by page number', async (q0) => {
    const q: Record<string, unknown> = { ...q0 };
    if (q.uid !== undefined) q.uid = uids[q0.uid as number];
    if (q.range) {
      delete q.range;
      q.start = fmtDay(all[Math.floor(all.length * 0.7)].createdAt);
      q.end = fmtDay(all[Math.floor(all.length * 0.2)].createdAt);
    }
    const ids = await expectCursorPagingMatchesOffset(list, q, 7);
    const want = wanted(q, q0.uid === undefined ? undefined : members[q0.uid as number]).map((r) => r.id);
    expect(ids).toEqual(q.order === 'asc' ? want.reverse() : want);
  });

  it('refuses a page number past MAX_OFFSET rows without a cursor; an unknown uid is an empty page', async () => {
    expect(await list({ page: 502, size: 20 })).toMatchObject({ code: 400 });
    expect(await list({ page: 502, size: 20, after: `${all[0].id}_${all[0].id}` })).toMatchObject({ code: 200 });
    expect((await list({ uid: '99999999' })).data).toMatchObject({ total: 0, list: [], next: null, prev: null });
  });
});

/** Minor units as the decimal string the API sends (trailing zeros dropped). */
function decimal(minor: bigint, decimals: number): string {
  const s = minor.toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${int}${frac ? `.${frac}` : ''}`;
}
