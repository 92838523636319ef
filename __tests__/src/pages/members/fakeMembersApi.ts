/** An in-memory stand-in for the member, zone and asset routes, answered through mockFetch. */
import { envelope, mockFetch } from '../../mockFetch';

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

export type Answer = (call: Call) => Response | Promise<Response> | undefined;

export const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

export const ALL_CODES = [
  'member:view',
  'member:create',
  'member:opt',
  'member:adjust',
  'zone:view',
  'zone:opt',
  'query:view',
  'bill:view',
  'payment:view',
];

const zero = { available: '0', frozen: '0' };
export const member = (over: Record<string, unknown> = {}) => ({
  id: 1,
  uid: '10000001',
  phone: '13800000001',
  nickname: '张三',
  inviterUid: '10000000',
  zoneId: 1,
  zoneName: '华东一区',
  level: 2,
  status: 1,
  realNameStatus: 1,
  balances: { USDT: { available: '1234.5', frozen: '10' }, LZ: { available: '5.5', frozen: '0' }, ENERGY: zero },
  createdAt: T0,
  lastLoginAt: null,
  ...over,
});
export const ZONES = [
  {
    id: 1,
    name: '华东一区',
    leaderUid: '10000000',
    leaderNickname: '老王',
    memberCount: 12,
    status: 1,
    sort: 1,
    createdAt: T0,
    updatedAt: T0,
  },
  {
    id: 2,
    name: '华南一区',
    leaderUid: null,
    leaderNickname: null,
    memberCount: 0,
    status: 0,
    sort: 2,
    createdAt: T0,
    updatedAt: T0,
  },
];

export function fakeMembersApi(opts: { codes?: string[]; answer?: Answer } = {}) {
  const calls: Call[] = [];
  const fetchMock = mockFetch(async (req) => {
    const url = new URL(req.url);
    const text = req.method === 'POST' ? await req.text() : '';
    const call: Call = {
      method: req.method,
      path: url.pathname.replace('/v1/admin/', ''),
      query: Object.fromEntries(url.searchParams),
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    if (call.path === 'user/permissions') return envelope({ codes: opts.codes ?? ALL_CODES, tree: [] });
    const r = await opts.answer?.(call);
    if (r) return r;
    if (call.path === 'zone/list') return envelope({ list: ZONES, total: ZONES.length, page: 1, size: 100 });
    return envelope(null, 404, '接口不存在');
  });
  return { calls, fetchMock, of: (path: string) => calls.filter((c) => c.path === path) };
}
