/**
 * The console's end of the live channel (GET /v1/admin/events, server/modules/live): one stream per
 * open console, read with fetch so the token goes in Authorization like every call. A `change` makes
 * the open lists of its topics and the waiting counts stale (RTK Query refetches what is on screen); a
 * `session` event asks the server once more, whose 301/302 answer leads to the login page; `ready`
 * (changes are watched from now on, after each connect) refetches what is open once, for what changed
 * before. The stream reconnects by itself (1 s, doubling to 30 s); while it is down the waiting counts
 * still poll.
 *
 * Also here: a token removed or replaced in another tab (the `storage` event) ends or switches this
 * tab's session at once instead of at its next request.
 */
import { useEffect } from 'react';
import { Code } from '../../domain/codes';
import type { LiveChange, LiveTopic } from '../../domain/live';
import { baseApi } from '../services/baseApi';
import { API_BASE, redirectToLogin } from '../services/http';
import { statsApi } from '../services/stats';
import { loggedIn, loggedOut, TOKEN_KEY, USERNAME_KEY } from '../store/authSlice';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { alertNews, readAlertSettings } from './liveAlerts';

/** The cache tags a topic makes stale (the lists of that kind, and what its money moves touch). */
export const TOPIC_TAGS: Record<LiveTopic, readonly string[]> = {
  withdrawal: ['Withdraw', 'Asset', 'Member'],
  deposit: ['Deposit', 'Asset', 'Member'],
  depositAccount: ['DepositAccount'],
  match: ['Match', 'Asset'],
  order: ['Order', 'Product', 'Asset'],
  product: ['Product'],
  member: ['Member', 'Zone', 'Asset'],
  zone: ['Zone', 'Member'],
  pledge: ['Pledge', 'PledgeRelease', 'Asset'],
  pledgeMode: ['PledgeMode'],
  seed: ['Seed', 'SeedRelease', 'Asset'],
  payment: ['Payment'],
  transfer: ['Transfer', 'Asset'],
  notice: ['Notice'],
  protocol: ['Protocol'],
  setting: ['Setting', 'Price', 'WithdrawSetting', 'DepositSetting'],
  manager: ['Manager'],
  role: ['Role', 'Permissions', 'Menu'],
  oplog: ['OpLog'],
};

// Known to the api before any page that provides them has loaded (RTK Query checks invalidated types).
baseApi.enhanceEndpoints({ addTagTypes: [...new Set(Object.values(TOPIC_TAGS).flat())] });

/** The tag types to invalidate for some topics, each once. */
export function tagsOf(topics: readonly string[]): string[] {
  return [...new Set(topics.flatMap((t) => TOPIC_TAGS[t as LiveTopic] ?? []))];
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Splits a server-sent event stream's text into whole events; `rest` is the unfinished tail. */
export function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length || event !== 'message') events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;
/** Changes arriving within this time make one refetch. */
const GATHER_MS = 300;
/** At most one refetch of the open lists per this time, however busy the platform. */
const MIN_REFETCH_GAP_MS = 5000;
/** The server writes at least every 15 s: silence this long means a dead connection. */
const SILENCE_MS = 45_000;
/** A tab hidden this long lets its stream go (browsers allow ~6 connections per host over HTTP/1.1), unless alerts are on. */
const HIDDEN_CLOSE_MS = 60_000;

const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

export function useLiveFeed(): void {
  const token = useAppSelector((s) => s.auth.token);
  const dispatch = useAppDispatch();

  // Another tab logged out (token removed) or logged in as someone else (token replaced).
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== TOKEN_KEY && e.key !== null) return;
      const now = window.localStorage.getItem(TOKEN_KEY);
      if (now === token) return;
      if (!now) {
        dispatch(loggedOut());
        redirectToLogin();
      } else {
        dispatch(loggedIn({ token: now, username: window.localStorage.getItem(USERNAME_KEY) ?? '' }));
        dispatch(baseApi.util.resetApiState());
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [token, dispatch]);

  useEffect(() => {
    if (!token || typeof fetch !== 'function' || typeof TextDecoder === 'undefined') return;
    const stop = new AbortController();
    let pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastFlush = 0;
    const flush = () => {
      timer = null;
      if (hidden()) return; // kept for when the tab shows again
      const tags = tagsOf([...pending]);
      pending = new Set();
      lastFlush = Date.now();
      // The tag types are added by each module's services file; the base api does not list them.
      if (tags.length) dispatch(baseApi.util.invalidateTags(tags as never[]));
    };
    const schedule = () => {
      timer ??= setTimeout(flush, Math.max(GATHER_MS, lastFlush + MIN_REFETCH_GAP_MS - Date.now()));
    };
    const onEvent = (e: SseEvent) => {
      if (e.event === 'session') {
        void dispatch(statsApi.endpoints.getWelcome.initiate(undefined, { forceRefetch: true, subscribe: false }));
        return;
      }
      if (e.event === 'ready') {
        // Watched from now on: what changed since the open queries loaded (or while the stream was
        // down) is unknown, so they ask once more.
        for (const t of Object.keys(TOPIC_TAGS)) pending.add(t);
        schedule();
        return;
      }
      if (e.event !== 'change') return;
      let change: LiveChange;
      try {
        change = JSON.parse(e.data) as LiveChange;
      } catch {
        return;
      }
      for (const t of change.topics ?? []) pending.add(t);
      schedule();
      alertNews(change.news ?? {});
    };

    // A hidden tab lets its stream go after a while (and takes it again when shown), unless it alerts.
    let conn: AbortController | null = null;
    let sleeping = false;
    let wake: () => void = () => undefined;
    let hiddenTimer: ReturnType<typeof setTimeout> | null = null;
    const onVisibility = () => {
      if (hiddenTimer) clearTimeout(hiddenTimer);
      hiddenTimer = null;
      if (hidden()) {
        hiddenTimer = setTimeout(() => {
          const alerts = readAlertSettings();
          if (hidden() && !alerts.sound && !alerts.notify) {
            sleeping = true;
            conn?.abort();
          }
        }, HIDDEN_CLOSE_MS);
      } else {
        if (pending.size) schedule();
        if (sleeping) {
          sleeping = false;
          wake();
        }
      }
    };
    document.addEventListener('visibilitychange', onVisibility);

    const run = async () => {
      let retry = FIRST_RETRY_MS;
      while (!stop.signal.aborted) {
        if (sleeping) {
          await new Promise<void>((r) => (wake = r));
          retry = FIRST_RETRY_MS;
          continue;
        }
        const c = new AbortController();
        conn = c;
        const abort = () => c.abort();
        stop.signal.addEventListener('abort', abort);
        let silence = setTimeout(abort, SILENCE_MS);
        const heard = () => {
          clearTimeout(silence);
          silence = setTimeout(abort, SILENCE_MS);
        };
        try {
          const res = await fetch(`${API_BASE}/v1/admin/events`, {
            headers: { Authorization: token },
            signal: c.signal,
            cache: 'no-store',
          });
          const type = res.headers.get('content-type') ?? '';
          if (res.ok && res.body && type.startsWith('text/event-stream')) {
            retry = FIRST_RETRY_MS;
            const reader = res.body.getReader();
            const decoder = new TextDecoder();
            let buffer = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              heard();
              const parsed = parseSse(buffer + decoder.decode(value, { stream: true }));
              buffer = parsed.rest;
              parsed.events.forEach(onEvent);
            }
          } else if (type.includes('application/json')) {
            // An envelope instead of a stream: the session may be over (301/302).
            const body = (await res.json().catch(() => null)) as { code?: number } | null;
            if (body?.code === Code.notLoggedIn || body?.code === Code.sessionEnded)
              onEvent({ event: 'session', data: '' });
          }
        } catch {
          // A dropped or silent connection, or a proxy that refuses streams: try again later.
        } finally {
          clearTimeout(silence);
          stop.signal.removeEventListener('abort', abort);
          conn = null;
        }
        if (stop.signal.aborted) return;
        if (sleeping) continue;
        await new Promise((r) => setTimeout(r, retry));
        retry = Math.min(retry * 2, LAST_RETRY_MS);
      }
    };
    void run();
    return () => {
      stop.abort();
      wake();
      document.removeEventListener('visibilitychange', onVisibility);
      if (hiddenTimer) clearTimeout(hiddenTimer);
      if (timer) clearTimeout(timer);
    };
  }, [token, dispatch]);
}
