import { act, render, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { useLiveFeed, parseSse, tagsOf, TOPIC_TAGS } from '../../../src/layout/liveFeed';
import { ALERTS_KEY, newsText, readAlertSettings } from '../../../src/layout/liveAlerts';
import { setNavigator } from '../../../src/services/http';
import { useGetWelcomeQuery } from '../../../src/services/stats';
import { LiveTopics } from '../../../domain/live';
import { envelope, mockFetch } from '../mockFetch';
import { makeStore, NO_WAITING } from '../shellHarness';

describe('the live channel, parsed', () => {
  it('splits a stream into whole events, keeps the unfinished tail, skips comments', () => {
    const { events, rest } = parseSse(
      'retry: 3000\n\n: keepalive\n\nevent: change\ndata: {"topics":["withdrawal"],"news":{}}\n\nevent: sess',
    );
    expect(events).toEqual([{ event: 'change', data: '{"topics":["withdrawal"],"news":{}}' }]);
    expect(rest).toBe('event: sess');
    expect(parseSse('event: session\r\ndata: {}\r\n\r\n').events).toEqual([{ event: 'session', data: '{}' }]);
  });

  it('knows the tags of every topic the server sends, each tag once', () => {
    for (const t of LiveTopics) expect([t, TOPIC_TAGS[t].length > 0]).toEqual([t, true]);
    expect(tagsOf(['withdrawal', 'deposit'])).toEqual(['Withdraw', 'Asset', 'Member', 'Deposit']);
    expect(tagsOf(['unknown'])).toEqual([]);
  });

  it('says what is new in Chinese, and the alerts start off', () => {
    expect(newsText({ withdraw: 2, deposit: 1 })).toBe('新申请：提现 2 笔，充值 1 笔');
    expect(newsText({})).toBe('');
    localStorage.removeItem(ALERTS_KEY);
    expect(readAlertSettings()).toEqual({ sound: false, notify: false });
  });
});

/** A stream response the test writes events into. */
function streamResponse() {
  let push: (text: string) => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const enc = new TextEncoder();
      push = (text) => controller.enqueue(enc.encode(text));
    },
  });
  const response = new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  return { response, push: (text: string) => push(text) };
}

function Probe() {
  useLiveFeed();
  useGetWelcomeQuery();
  return null;
}

describe('useLiveFeed', () => {
  /** Renders the probe on a stream the test writes into; counts the welcome calls. */
  function live() {
    const stream = streamResponse();
    const seen = { welcomes: 0 };
    mockFetch((req) => {
      const path = new URL(req.url).pathname;
      if (path === '/v1/admin/events') {
        expect(req.headers.get('authorization')).toBe('tok-1');
        return stream.response;
      }
      if (path === '/v1/admin/welcome') seen.welcomes += 1;
      return envelope(NO_WAITING);
    });
    const view = render(
      <Provider store={makeStore()}>
        <Probe />
      </Provider>,
    );
    const push = async (text: string, ms: number) => {
      await act(async () => {
        stream.push(text);
        await jest.advanceTimersByTimeAsync(ms);
      });
    };
    return { seen, view, push };
  }
  const change = (topics: string[]) => `event: change\ndata: ${JSON.stringify({ topics, news: {} })}\n\n`;

  beforeEach(() => jest.useFakeTimers({ advanceTimers: true }));
  afterEach(() => {
    jest.useRealTimers();
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
  });

  it('refetches the open queries of a changed topic, not of others, and all of them when ready', async () => {
    const { seen, view, push } = live();
    await waitFor(() => expect(seen.welcomes).toBe(1));
    await push(change(['notice']), 400);
    expect(seen.welcomes).toBe(1);
    await push(change(['withdrawal']), 400);
    await waitFor(() => expect(seen.welcomes).toBe(2));
    // Watched from now on (after a connect or a reconnect): what is open asks once more.
    await push('event: ready\ndata: {}\n\n', 5500);
    await waitFor(() => expect(seen.welcomes).toBe(3));
    view.unmount();
  });

  it('refetches at most once per 5 s however busy, and not while the tab is hidden', async () => {
    const { seen, view, push } = live();
    await waitFor(() => expect(seen.welcomes).toBe(1));
    await push(change(['withdrawal']), 400);
    await waitFor(() => expect(seen.welcomes).toBe(2));
    await push(change(['deposit']), 1000);
    await push(change(['withdrawal']), 1000);
    expect(seen.welcomes).toBe(2);
    await push('', 3500);
    await waitFor(() => expect(seen.welcomes).toBe(3));
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    await push(change(['withdrawal']), 8000);
    expect(seen.welcomes).toBe(3);
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
      await jest.advanceTimersByTimeAsync(400);
    });
    await waitFor(() => expect(seen.welcomes).toBe(4));
    view.unmount();
  });

  it('ends this tab’s session when another tab removes the token', async () => {
    mockFetch(() => envelope(null, 404, '接口不存在'));
    const navigate = jest.fn();
    setNavigator(navigate);
    const store = makeStore();
    const view = render(
      <Provider store={store}>
        <Probe />
      </Provider>,
    );
    localStorage.removeItem('lz-admin-token');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'lz-admin-token', oldValue: 'tok-1', newValue: null }));
    });
    expect(store.getState().auth.token).toBeNull();
    expect(navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/login\?redirect=/), { replace: true });
    view.unmount();
  });
});
