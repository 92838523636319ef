import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import {
  answerHook,
  baseQuery,
  expectSessionEnd,
  HTTP_TIMEOUT_MS,
  LOGIN_PATH,
  setNavigator,
} from '../../../src/services/http';
import { createAppStore } from '../../../src/store';
import { envelope, mockFetch, requestOf } from '../mockFetch';

function setup(token: string | null = 'tok-1') {
  localStorage.clear();
  if (token) {
    localStorage.setItem('lz-admin-token', token);
    localStorage.setItem('uname', 'admin');
  }
  const store = createAppStore({ auth: { token, username: token ? 'admin' : null } }, localStorage);
  const navigate = jest.fn();
  setNavigator(navigate);
  const controller = new AbortController();
  const api: BaseQueryApi = {
    dispatch: store.dispatch,
    getState: store.getState,
    signal: controller.signal,
    abort: () => controller.abort(),
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  };
  const run = (args: Parameters<typeof baseQuery>[0]) => baseQuery(args, api, {});
  const counter = () => store.getState().loading.count;
  return { store, navigate, run, counter, controller };
}

/** A fetch whose answer the test releases, to look at the counter while the call is pending. */
function deferredFetch() {
  let release!: (r: Response) => void;
  const fetchMock = mockFetch(() => new Promise<Response>((resolve) => (release = resolve)));
  return { fetchMock, release: (r: Response) => release(r) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => window.history.replaceState(null, '', '/layout/welcome'));

describe('baseQuery', () => {
  it('waits 30,000 ms before giving up', () => {
    expect(HTTP_TIMEOUT_MS).toBe(30000);
  });

  it('resolves code 200 with the envelope data and sends the raw token in Authorization', async () => {
    const { run, counter } = setup('raw-token');
    const fetchMock = mockFetch(() => envelope([{ id: 1 }]));
    await expect(run('/v1/admin/user/menu')).resolves.toEqual({ data: [{ id: 1 }] });
    expect(requestOf(fetchMock).headers.get('authorization')).toBe('raw-token');
    expect(counter()).toBe(0);
  });

  it('sends no Authorization header without a token', async () => {
    const { run } = setup(null);
    const fetchMock = mockFetch(() => envelope(null));
    await run('/v1/admin/user/menu');
    expect(requestOf(fetchMock).headers.has('authorization')).toBe(false);
  });

  it.each(['GET', 'POST'])('raises the loading counter during a %s and lowers it after', async (method) => {
    const { run, counter } = setup();
    const { release } = deferredFetch();
    const pending = run({ url: '/v1/admin/member/list', method });
    await flush();
    expect(counter()).toBe(1);
    release(envelope({ list: [] }));
    await pending;
    expect(counter()).toBe(0);
  });

  it('does not count other methods', async () => {
    const { run, counter } = setup();
    const { release } = deferredFetch();
    const pending = run({ url: '/v1/admin/thing', method: 'DELETE' });
    await flush();
    expect(counter()).toBe(0);
    release(envelope(null));
    await pending;
    expect(counter()).toBe(0);
  });

  it('never touches the counter for login, whatever the answer', async () => {
    const { run, store, counter } = setup(null);
    const seen: number[] = [];
    const unsubscribe = store.subscribe(() => seen.push(counter()));
    const { release } = deferredFetch();
    const pending = run({ url: LOGIN_PATH, method: 'POST', body: { username: 'a', password: 'b' } });
    await flush();
    expect(counter()).toBe(0);
    release(envelope(null, 400, '用户名或密码错误'));
    await expect(pending).resolves.toEqual({ error: { code: 400, msg: '用户名或密码错误' } });
    mockFetch(() => Promise.reject(new TypeError('fetch failed')));
    await run({ url: LOGIN_PATH, method: 'POST', body: {} });
    unsubscribe();
    expect(seen.every((n) => n === 0)).toBe(true);
    expect(counter()).toBe(0);
  });

  it('passes a blob through untouched', async () => {
    const { run, counter } = setup();
    mockFetch(
      () =>
        new Response(new Blob(['a,b\n1,2'], { type: 'text/csv' }), {
          status: 200,
          headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        }),
    );
    const result = await run('/v1/admin/payment/export');
    expect(result.data).toBeInstanceOf(Blob);
    await expect((result.data as Blob).text()).resolves.toBe('a,b\n1,2');
    expect(counter()).toBe(0);
  });

  it.each([301, 302])(
    'on %i clears token and uname and replaces the route with /login?redirect=<full path>',
    async (code) => {
      const { run, store, navigate, counter } = setup();
      window.history.replaceState(null, '', '/layout/memberLayout/memberListLayout?page=2#top');
      mockFetch(() => envelope(null, code, '登录已过期，请重新登录'));
      const result = await run('/v1/admin/member/list');
      expect(result.error).toEqual({ code, msg: '登录已过期，请重新登录' });
      expect(localStorage.getItem('lz-admin-token')).toBeNull();
      expect(localStorage.getItem('uname')).toBeNull();
      expect(store.getState().auth).toEqual({ token: null, username: null });
      expect(navigate).toHaveBeenCalledTimes(1);
      expect(navigate).toHaveBeenCalledWith(
        `/login?redirect=${encodeURIComponent('/layout/memberLayout/memberListLayout?page=2#top')}`,
        { replace: true },
      );
      expect(counter()).toBe(0);
    },
  );

  it.each([301, 302])('on %i while already on /login clears the token but stays', async (code) => {
    const { run, navigate, counter } = setup();
    window.history.replaceState(null, '', '/login?redirect=%2Flayout%2Fwelcome');
    mockFetch(() => envelope(null, code, ''));
    const result = await run('/v1/admin/user/menu');
    expect(result.error).toEqual({ code, msg: '系统繁忙，请稍后再试' });
    expect(localStorage.getItem('lz-admin-token')).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(counter()).toBe(0);
  });

  it('while a page ends the session itself (a password change), a 302 fails quietly: no redirect with a way back', async () => {
    const { run, navigate } = setup();
    mockFetch(() => envelope(null, 302, '您的登录已失效，请重新登录'));
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      expectSessionEnd(2500);
      now.mockReturnValue(1_002_000);
      expect((await run('/v1/admin/stat/welcome')).error).toMatchObject({ code: 302 });
      expect(navigate).not.toHaveBeenCalled();
      expect(localStorage.getItem('lz-admin-token')).toBe('tok-1'); // the page logs out itself
      // past the window, a 302 is the session ended as ever
      now.mockReturnValue(1_002_501);
      await run('/v1/admin/stat/welcome');
      expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Flayout%2Fwelcome', { replace: true });
    } finally {
      now.mockRestore();
    }
  });

  it("fails any other code with the server's msg", async () => {
    const { run, navigate, counter } = setup();
    mockFetch(() => envelope(null, 400, '手机号不能为空'));
    await expect(run({ url: '/v1/admin/member/create', method: 'POST', body: {} })).resolves.toEqual({
      error: { code: 400, msg: '手机号不能为空' },
    });
    expect(localStorage.getItem('lz-admin-token')).toBe('tok-1');
    expect(navigate).not.toHaveBeenCalled();
    expect(counter()).toBe(0);
  });

  it('fails any other code without msg with 系统繁忙，请稍后再试', async () => {
    const { run, counter } = setup();
    mockFetch(
      () =>
        new Response(JSON.stringify({ code: 500, data: null }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    await expect(run('/v1/admin/stat')).resolves.toEqual({ error: { code: 500, msg: '系统繁忙，请稍后再试' } });
    expect(counter()).toBe(0);
  });

  it('treats a JSON answer without an envelope code as a failure', async () => {
    const { run } = setup();
    mockFetch(() => new Response('{}', { headers: { 'content-type': 'application/json' } }));
    await expect(run('/v1/admin/stat')).resolves.toEqual({ error: { code: 500, msg: '系统繁忙，请稍后再试' } });
  });

  it('gives up after 30 s with 请求超时，请稍后重试！', async () => {
    jest.useFakeTimers();
    try {
      const { run, counter } = setup();
      mockFetch(
        (request) =>
          new Promise<Response>((_resolve, reject) => {
            request.signal.addEventListener('abort', () => reject(request.signal.reason));
          }),
      );
      const pending = run('/v1/admin/member/list');
      await jest.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 1);
      expect(counter()).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(pending).resolves.toEqual({ error: { code: 0, msg: '请求超时，请稍后重试！' } });
      expect(counter()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reads a transport error mentioning timeout as a timeout', async () => {
    const { run, counter } = setup();
    mockFetch(() => Promise.reject(new TypeError('network timeout at: /v1/admin/stat')));
    await expect(run('/v1/admin/stat')).resolves.toEqual({ error: { code: 0, msg: '请求超时，请稍后重试！' } });
    expect(counter()).toBe(0);
  });

  it('fails any other transport error with 请求失败，请稍后重试！', async () => {
    const { run, counter } = setup();
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(run({ url: '/v1/admin/member/opt', method: 'POST', body: { id: 1 } })).resolves.toEqual({
      error: { code: 0, msg: '请求失败，请稍后重试！' },
    });
    expect(counter()).toBe(0);
  });

  it('fails a non-JSON error page (a proxy answering 502) as a request failure', async () => {
    const { run, counter } = setup();
    mockFetch(
      () => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    await expect(run('/v1/admin/stat')).resolves.toEqual({ error: { code: 0, msg: '请求失败，请稍后重试！' } });
    expect(counter()).toBe(0);
  });
});

describe('the request it sends', () => {
  it('leaves undefined params out, joins an array with commas and keeps the rest as text', async () => {
    const { run } = setup();
    const fetchMock = mockFetch(() => envelope(null));
    await run({ url: '/v1/admin/bill/list', params: { type: [1, 2], keyword: undefined, page: 2, flag: false } });
    const url = new URL(requestOf(fetchMock).url);
    expect(url.pathname).toBe('/v1/admin/bill/list');
    expect(url.search).toBe('?type=1%2C2&page=2&flag=false');
  });

  it('sends a plain object as JSON, and no body at all for null', async () => {
    const { run } = setup();
    const fetchMock = mockFetch(() => envelope(null));
    await run({ url: '/v1/admin/member/opt', method: 'POST', body: { id: 1, remark: '备注' } });
    expect(requestOf(fetchMock).headers.get('content-type')).toBe('application/json');
    await expect(requestOf(fetchMock).json()).resolves.toEqual({ id: 1, remark: '备注' });
    await expect(run({ url: '/v1/admin/user/logout', method: 'POST', body: null })).resolves.toEqual({ data: null });
    expect(requestOf(fetchMock, 1).headers.has('content-type')).toBe(false);
    await expect(requestOf(fetchMock, 1).text()).resolves.toBe('');
  });

  it('does not send a request its caller has already given up', async () => {
    const { run, controller } = setup();
    controller.abort();
    let signal: AbortSignal | undefined;
    mockFetch((request) => {
      signal = request.signal;
      return envelope(null);
    });
    await run('/v1/admin/user/menu');
    expect(signal?.aborted).toBe(true);
  });
});

describe('errors reach the user as a toast', () => {
  it('toasts a failed call through the api, but not a failed login', async () => {
    const { store } = setup();
    const { api } = await import('../../../src/services/generated/auth');
    mockFetch(() => envelope(null, 500, '数据库开小差了'));
    await store.dispatch(api.endpoints.getMenu.initiate());
    expect(store.getState().toast.items.map((t) => [t.msg, t.severity])).toEqual([['数据库开小差了', 'error']]);
    mockFetch(() => envelope(null, 400, '用户名或密码错误'));
    await store.dispatch(api.endpoints.login.initiate({ body: { username: 'a', password: 'b' } }));
    expect(store.getState().toast.items).toHaveLength(1);
  });
});

describe('baseQuery and the shell hook (the second factor, issue 15)', () => {
  afterEach(() => {
    answerHook.current = undefined;
  });

  it('gives every answer to the hook, which may send the same request again with the overlay down', async () => {
    const { run, counter } = setup();
    let calls = 0;
    const fetchMock = mockFetch(() => (++calls === 1 ? envelope(null, 428, '需要验证') : envelope({ id: 7 })));
    let during = -1;
    answerHook.current = async (result, again) => {
      during = counter();
      return result.error?.code === 428 ? again() : result;
    };
    await expect(run({ url: '/v1/admin/withdraw/opt', method: 'POST', body: { id: 7 } })).resolves.toEqual({
      data: { id: 7 },
    });
    expect(during).toBe(0);
    expect(counter()).toBe(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(await requestOf(fetchMock, 1).text()).toBe('{"id":7}');
  });

  it('without a hook (the login page) an answer is as the server gave it', async () => {
    const { run } = setup();
    mockFetch(() => envelope(null, 428, '需要验证'));
    await expect(run({ url: '/v1/admin/withdraw/opt', method: 'POST', body: {} })).resolves.toEqual({
      error: { code: 428, msg: '需要验证' },
    });
  });
});
