/**
 * Bills at scale, in miniature: bill_stat (per day and per 32-day block, written by the ledger with each
 * bill) gives the exact total and sums of any asset/type/date filter, part-days included, and keyset
 * paging gives exactly what OFFSET paging gives, in both orders and under every filter shape.
 */
import fc from 'fast-check';
import { SHANGHAI_OFFSET } from '../../../../domain/time';
import { statRanges } from '../../../../server/modules/bills/bills.repository';
import { sql } from 'kysely';
import {
  applyChange,
  billStatViolations,
  dayStart,
  DAY_MS,
  rebuildBillStats,
} from '../../../../server/modules/ledger/ledger.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { addMember } from '../deposits/fixtures';

jest.setTimeout(120_000);

interface Bill {
  id: number;
  memberId: number;
  asset: string;
  type: number;
  change: string;
  frozenChange: string;
  createdAt: number;
}

describe('statRanges', () => {
  it('covers [start, end] exactly once with blocks, whole days and part-days', () => {
    const base = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 400 * DAY_MS }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 400 * DAY_MS }), { nil: undefined }),
        fc.array(fc.integer({ min: -10 * DAY_MS, max: 410 * DAY_MS }), { minLength: 1, maxLength: 30 }),
        (s, e, probes) => {
          const start = s === undefined ? undefined : base + s;
          const end = e === undefined ? undefined : base + e;
          const r = statRanges(start, end);
          for (const p of probes.map((x) => base + x)) {
            const inRange = (start === undefined || p >= start) && (end === undefined || p <= end);
            const day = Math.floor((p + SHANGHAI_OFFSET) / DAY_MS);
            const hits =
              r.days.filter(([a, b]) => day >= a && day < b).length +
              r.blocks.filter(([a, b]) => day >= a * 32 && day < b * 32).length +
              r.partial.filter(([a, b]) => p >= a && p < b).length;
            expect({ p, hits }).toEqual({ p, hits: inRange ? 1 : 0 });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a year of whole days as blocks and a few days', () => {
    const start = dayStart(20000);
    const end = dayStart(20365) - 1;
    const r = statRanges(start, end);
    expect(r.partial).toEqual([]);
    expect(r.blocks).toEqual([[625, 636]]);
    expect(r.days).toEqual(
      [
        [20000, 20000],
        [20352, 20365],
      ].filter(([a, b]) => a < b),
    );
  });
});

describe(`bill totals and keyset paging (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let members: number[];
  let uids: string[];
  let all: Bill[];
  const bills = (query: Record<string, unknown>) => t.call('GET', '/v1/admin/bill', { token, query });
  const t0 = Date.UTC(2026, 6, 1, 3, 0, 0);

  beforeAll(async () => {
    t = await build();
    members = [];
    for (let i = 0; i < 4; i++) members.push(await addMember(t));
    uids = [];
    for (const id of members)
      uids.push((await t.db.db.selectFrom('member').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid);
    // ~150 days of bills at uneven times (several per day, some days none), across blocks.
    t.clock.set(t0);
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor(seed / 65536) % n;
    };
    for (let i = 0; i < 240; i++) {
      t.clock.advance(rnd(3) === 0 ? rnd(5) * DAY_MS : rnd(8 * 3600_000));
      const memberId = members[i % 7 === 0 ? 0 : rnd(members.length)];
      const asset = (['USDT', 'LZ', 'ENERGY'] as const)[rnd(3)];
      const type = [1, 8, 10, 16][rnd(4)];
      const amount = BigInt(1 + rnd(100_000));
      await t.db.db.transaction().execute(async (trx) => {
        await applyChange(trx, { memberId, asset, available: amount, type: type as 1 }, t.clock.now());
        // Some bills move money into frozen as well (a second bill in the same transaction).
        if (rnd(4) === 0)
          await applyChange(trx, { memberId, asset, available: -amount, frozen: amount, type: 2 }, t.clock.now());
      });
    }
    const rows = await t.db.db
      .selectFrom('bill')
      .select(['id', 'member_id', 'asset', 'type', 'created_at'])
      .select((eb) => [
        eb.cast<string>('change', 'text').as('change'),
        eb.cast<string>('frozen_change', 'text').as('fc'),
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    // The clock moved months: log in now (a session ends after 12 idle hours).
    token = await t.login();
    all = rows.map((r) => ({
      id: Number(r.id),
      memberId: Number(r.member_id),
      asset: r.asset,
      type: r.type,
      change: r.change,
      frozenChange: r.fc,
      createdAt: Number(r.created_at),
    }));
  });
  afterAll(() => t.close());

  it('keeps bill_stat equal to the bills', async () => {
    expect(all.length).toBeGreaterThan(240);
    expect(await billStatViolations(t.db.db)).toEqual([]);
  });

  const fmtDay = (ms: number) => new Date(ms + SHANGHAI_OFFSET).toISOString().slice(0, 10);

  it('answers exact totals and per-asset sums for asset, type and date filters, part-days included', async () => {
    const first = all.at(-1)!.createdAt;
    const last = all[0].createdAt;
    const span = last - first;
    const cases: Array<Record<string, unknown>> = [{}, { asset: 'LZ' }, { type: 2 }, { asset: 'USDT', type: 16 }];
    for (let i = 0; i < 12; i++) {
      const a = first + Math.floor((span * i) / 12);
      const b = a + Math.floor(span / (3 + i));
      cases.push({ start: String(a), end: String(b) });
      cases.push({ start: fmtDay(a), end: fmtDay(b), ...(i % 2 ? { asset: 'ENERGY' } : { type: 8 }) });
      cases.push({ start: fmtDay(a) });
      cases.push({ end: `${fmtDay(b)} 12:30:00` });
    }
    const dayStartOf = (text: string) => Date.parse(`${text}T00:00:00+08:00`);
    const bound = (v: unknown, endOfDay: boolean) => {
      if (v === undefined) return undefined;
      const s = String(v);
      if (/^\d+$/.test(s)) return Number(s);
      if (s.length === 10) return dayStartOf(s) + (endOfDay ? DAY_MS - 1 : 0);
      return Date.parse(`${s.replace(' ', 'T')}+08:00`);
    };
    for (const q of cases) {
      const start = bound(q.start, false);
      const end = bound(q.end, true);
      const want = all.filter(
        (b) =>
          (q.asset === undefined || b.asset === q.asset) &&
          (q.type === undefined || b.type === q.type) &&
          (start === undefined || b.createdAt >= start) &&
          (end === undefined || b.createdAt <= end),
      );
      const sums = new Map<string, [bigint, bigint]>();
      for (const b of want) {
        const s = sums.get(b.asset) ?? [0n, 0n];
        sums.set(b.asset, [s[0] + BigInt(b.change), s[1] + BigInt(b.frozenChange)]);
      }
      const r = await bills({ ...q, size: 100 });
      expect({ q, code: r.code, total: r.data.total, capped: r.data.totalCapped }).toEqual({
        q,
        code: 200,
        total: want.length,
        capped: false,
      });
      const got = new Map(
        (r.data.sum.byAsset as Array<{ asset: string; change: string; frozenChange: string }>).map((s) => [
          s.asset,
          [s.change, s.frozenChange],
        ]),
      );
      expect({ q, assets: [...got.keys()].sort() }).toEqual({ q, assets: [...sums.keys()].sort() });
      for (const [asset, [c, f]] of sums) {
        const decimals = asset === 'USDT' ? 6 : asset === 'LZ' ? 4 : 2;
        const [gc, gf] = got.get(asset)!;
        expect({ q, asset, c: gc, f: gf }).toEqual({
          q,
          asset,
          c: decimal(c, decimals),
          f: decimal(f, decimals),
        });
      }
      expect(r.data.list.map((b: Bill) => b.id)).toEqual(want.slice(0, 100).map((b) => b.id));
    }
  });

  it.each([
    [{}],
    [{ order: 'asc' }],
    [{ asset: 'LZ' }],
    [{ type: 2, order: 'asc' }],
    [{ member: 0 }],
    [{ member: 1, asset: 'USDT' }],
    [{ keyword: 'phone-prefix' }],
  ] as Array<[Record<string, unknown> & { member?: number }]>)(
    'pages %j by cursor exactly as by page number',
    async (q0) => {
      const q: Record<string, unknown> = { ...q0 };
      if (q.member !== undefined) {
        q.keyword = uids[q.member as number];
        delete q.member;
      }
      // A phone prefix every test member shares: several members, their bills sorted after the lookup.
      if (q.keyword === 'phone-prefix') q.keyword = '139';
      const ids = await expectCursorPagingMatchesOffset(bills, q, 5);
      const asc = q.order === 'asc';
      const want = all
        .filter(
          (b) =>
            (q.asset === undefined || b.asset === q.asset) &&
            (q.type === undefined || b.type === q.type) &&
            (q0.member === undefined || b.memberId === members[q0.member]),
        )
        .map((b) => b.id);
      expect(ids).toEqual(asc ? want.reverse() : want);
    },
  );

  // Last: it changes bill_stat and puts it back.
  it('names the stat rows that differ from the bills, and rebuilds them', async () => {
    const db = t.db.db;
    const day = await db.selectFrom('bill_stat').selectAll().where('kind', '=', 'D').limit(1).executeTakeFirstOrThrow();
    await db
      .updateTable('bill_stat')
      .set({ n: sql`n + 1` })
      .where('kind', '=', 'D')
      .where('bucket', '=', day.bucket)
      .where('asset', '=', day.asset)
      .where('type', '=', day.type)
      .execute();
    await db.deleteFrom('bill_stat').where('kind', '=', 'B').execute();
    const bad = await billStatViolations(db);
    expect(bad).toContainEqual({ kind: 'D', bucket: Number(day.bucket), asset: day.asset, type: Number(day.type) });
    expect(bad.filter((v) => v.kind === 'B').length).toBeGreaterThan(0);
    await rebuildBillStats(db);
    expect(await billStatViolations(db)).toEqual([]);
  });
});

/** Minor units as the decimal string the API sends (trailing zeros dropped). */
function decimal(minor: bigint, decimals: number): string {
  const neg = minor < 0n;
  const abs = neg ? -minor : minor;
  const s = abs.toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
