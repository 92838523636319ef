/**
 * An in-memory stand-in for the pledge routes, answered through mockFetch: enough state for the two
 * pages to list, save and refresh, and a log of every request for the assertions.
 */
import type { ListPledgeModesApiResponse, ListPledgesApiResponse } from '../../../../src/services/generated/pledge';
import { envelope, mockFetch } from '../../mockFetch';

export type Pledge = ListPledgesApiResponse['list'][number];
export type Mode = ListPledgeModesApiResponse['list'][number];
export type Run = NonNullable<ListPledgesApiResponse['lastRun']>;

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

export const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);
export const ALL_CODES = ['pledge:view', 'pledge:export', 'pledgeMode:view', 'pledgeMode:update'];

export const RUN: Run = {
  day: '2026-11-21',
  status: 2,
  statusText: '已完成',
  startedAt: T0,
  finishedAt: T0 + 5000,
  pledges: 3,
  pledgeYield: '40.6',
  pledgePrincipal: '300',
  seeds: 0,
  seedEnergy: '0',
  matchesCancelled: 0,
  error: '',
};

export function modes(): Mode[] {
  const m = (id: number, name: string, days: number, rate: string, status: 0 | 1, inUse: number): Mode => ({
    id,
    name,
    days,
    rate,
    minAmount: '100',
    maxAmount: '100000',
    status,
    sort: id,
    inUse,
    createdAt: T0,
    updatedAt: T0,
  });
  return [m(1, '稳健30天', 30, '0.0123', 1, 2), m(2, '旧版15天', 15, '0.003', 0, 1)];
}

export function pledges(): Pledge[] {
  const p = (id: number, modeId: number, status: 1 | 2, amount: string, released: string): Pledge => ({
    id,
    memberId: 100 + id,
    uid: String(10000000 + id),
    phone: `1380000${String(id).padStart(4, '0')}`,
    nickname: `会员${id}`,
    modeId,
    modeName: modeId === 1 ? '稳健30天' : '旧版15天',
    amount,
    rate: modeId === 1 ? '0.0123' : '0.003',
    days: modeId === 1 ? 30 : 15,
    dailyYield: '12.3',
    totalYield: '369',
    startDate: '2026-11-20',
    endDate: '2026-12-20',
    paidDate: '2026-11-21',
    released,
    status,
    createdAt: T0,
    finishedAt: status === 2 ? T0 : null,
  });
  return [p(3, 1, 1, '1000', '12.3'), p(2, 2, 2, '300', '13.5'), p(1, 1, 1, '500', '6.15')];
}

export interface FakeOptions {
  codes?: string[];
  lastRun?: Run | null;
  /** An answer to force for one path (e.g. a 400 on pledge/mode/update). */
  override?: Record<string, { code: number; msg: string }>;
}

export function fakePledgeApi(opts: FakeOptions = {}) {
  const calls: Call[] = [];
  const state = { modes: modes(), pledges: pledges() };
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json().catch(() => null) : null;
    calls.push({ method: request.method, path, query, body });
    const forced = opts.override?.[path];
    if (forced) return envelope(null, forced.code, forced.msg);
    switch (path) {
      case 'user/permissions':
        return envelope({ codes: opts.codes ?? ALL_CODES, tree: [] });
      case 'pledge/list': {
        let rows = state.pledges;
        if (query.status !== undefined) rows = rows.filter((r) => r.status === Number(query.status));
        if (query.modeId !== undefined) rows = rows.filter((r) => r.modeId === Number(query.modeId));
        return envelope({
          list: rows,
          total: rows.length,
          page: 1,
          size: 20,
          next: null,
          prev: null,
          sum: { amount: '1800', released: '31.95' },
          lastRun: opts.lastRun === undefined ? RUN : opts.lastRun,
        });
      }
      case 'pledge/release/list':
        return envelope({
          list: [
            {
              id: 12,
              pledgeId: 2,
              memberId: 102,
              uid: '10000002',
              phone: '',
              nickname: '',
              day: '2026-11-22',
              amount: '0.9',
              principal: '300',
              createdAt: T0,
            },
            {
              id: 11,
              pledgeId: 2,
              memberId: 102,
              uid: '10000002',
              phone: '',
              nickname: '',
              day: '2026-11-21',
              amount: '0.9',
              principal: '0',
              createdAt: T0,
            },
          ],
          total: 2,
          page: 1,
          size: 20,
          next: null,
          prev: null,
          sum: { amount: '1.8', principal: '300' },
        });
      case 'pledge/mode/list':
        return envelope({ list: state.modes });
      case 'pledge/mode/update': {
        if (body.id) {
          const m = state.modes.find((x) => x.id === body.id)!;
          Object.assign(m, body, { updatedAt: T0 + 1000 });
          return envelope(m);
        }
        const m: Mode = { ...body, id: state.modes.length + 1, inUse: 0, createdAt: T0, updatedAt: T0 };
        state.modes.push(m);
        return envelope(m);
      }
      default:
        return envelope(null, 404, '接口不存在');
    }
  });
  return { calls, state, of: (p: string) => calls.filter((c) => c.path === p) };
}
