/**
 * Test helper for client code that calls the API through fetch (RTK Query's baseQuery, downloads).
 * Node's Request (kept by jest-fixed-jsdom) refuses relative URLs such as '/v1/admin/...', which the
 * browser resolves against the page: `mockFetch` installs a Request that does the same, and a fetch
 * mock that answers through `handler(request)`.
 *
 *   const fetchMock = mockFetch(async (req) => envelope({ codes: ['manager:view'], tree: [] }));
 *   expect(fetchMock).toHaveBeenCalledTimes(1);
 */
const NodeRequest = globalThis.Request;

class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href).href : input, init);
  }
}

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export function mockFetch(handler: FetchHandler): jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]> {
  globalThis.Request = PageRequest as typeof Request;
  const mock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(input instanceof Request ? input : new PageRequest(input, init)),
  );
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
}

/** The request a mock received, as a Request. */
export function requestOf(mock: jest.Mock, call = 0): Request {
  const [input, init] = mock.mock.calls[call] as [RequestInfo | URL, RequestInit?];
  return input instanceof Request ? input : new PageRequest(input, init);
}

/** A JSON envelope response `{ code, msg, data }` with HTTP 200, as the server sends. */
export function envelope(data: unknown, code = 200, msg = code === 200 ? 'success' : '操作失败'): Response {
  return new Response(JSON.stringify({ code, msg, data }), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}
