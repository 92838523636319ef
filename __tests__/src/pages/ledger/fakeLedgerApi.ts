/** An in-memory stand-in for payment, transfer and bill routes, answered through mockFetch. */
import { envelope, mockFetch } from '../../mockFetch';

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

export const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

export function fakeLedgerApi(
  opts: { codes?: string[]; answer?: (call: Call) => Response | Promise<Response> | undefined } = {},
) {
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
    if (call.path === 'user/permissions') return envelope({ codes: opts.codes ?? [], tree: [] });
    const r = await opts.answer?.(call);
    return r ?? envelope(null, 404, '接口不存在');
  });
  return { calls, fetchMock, of: (path: string) => calls.filter((c) => c.path === path) };
}
