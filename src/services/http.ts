/**
 * How the console calls its API (SPEC.md §7–§8), without RTK Query: the login route uses it on its
 * own (services/session.ts) and does not download RTK Query; the api of ./baseApi uses it as its
 * baseQuery.
 *
 * The baseQuery: 30,000 ms timeout; the raw token in Authorization; the loading counter up for
 * GET and POST except login and down on every outcome; code 200 → data; blobs pass; 301/302 → token
 * cleared and the route replaced with /login?redirect=<current path>; any other code → the server's msg
 * or "系统繁忙，请稍后再试"; a transport error → the timeout or the generic failure message.
 * The second factor (issue 15) is the shell's answerHook: 428 → a fresh code, then the same request
 * again; 426 → the binding screen.
 */
import type { BaseQueryApi, BaseQueryFn } from '@reduxjs/toolkit/query';
import { ClientMessages as Messages, Code } from '../../domain/codes';
import { loggedOut } from '../store/authSlice';
import { requestFinished, requestStarted } from '../store/loadingSlice';

export const HTTP_TIMEOUT_MS = 30_000;
export const LOGIN_PATH = '/v1/admin/user/login';
/** Where the API lives: same origin unless the build says otherwise. */
export const API_BASE = process.env.API_BASE ?? '';

/** What a failed call rejects with. `code` is the envelope code, or 0 for a transport failure. */
export interface ApiError {
  code: number;
  msg: string;
}

type Navigate = (to: string, opts: { replace: boolean }) => void;
let navigate: Navigate = (to) => window.location.replace(to);
/** The router registers itself so a 301/302 can replace the route without a page reload. */
export function setNavigator(fn: Navigate) {
  navigate = fn;
}

export function currentFullPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/**
 * Until this time a 301/302 is expected: a page that ended the session itself (a password change) is
 * about to log out and go to login. A request answered so meanwhile (the live feed's) fails quietly
 * instead of sending the user to login with a way back here first.
 */
let sessionEndExpectedUntil = 0;
export function expectSessionEnd(withinMs: number) {
  sessionEndExpectedUntil = Date.now() + withinMs;
}

/** A 301/302 ends the session: replace the route with the login page, coming back here after (downloads too). */
export function redirectToLogin() {
  if (window.location.pathname !== '/login') {
    navigate(`/login?redirect=${encodeURIComponent(currentFullPath())}`, { replace: true });
  }
}

/**
 * What the shell does with an answer before the caller sees it (src/layout/SecondFactor.tsx sets it:
 * a 428 asks for a code and sends the request again through `again`, a 426 shows the binding screen).
 * A hook rather than code here: the login route downloads this module.
 */
export const answerHook: {
  current?: (
    result: QueryResult,
    again: () => Promise<QueryResult>,
    sentAt: number,
  ) => Promise<QueryResult> | QueryResult;
} = {};

/** What a request names: a path, or a path with query parameters, a method and a body. */
export interface FetchArgs {
  url: string;
  method?: string;
  params?: Record<string, unknown>;
  body?: unknown;
}

/** Sent as JSON, as fetchBaseQuery decides: an array, a plain object or anything with toJSON. */
function isJsonBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const proto = Object.getPrototypeOf(body) as object | null;
  return (
    Array.isArray(body) ||
    proto === Object.prototype ||
    proto === null ||
    typeof (body as { toJSON?: unknown }).toJSON === 'function'
  );
}

/** The envelope (or, for an export, the Blob) of a 2xx answer; ApiError for anything else. */
async function rawFetch(request: FetchArgs, api: BaseQueryApi): Promise<{ data: unknown } | { error: ApiError }> {
  let url = `${API_BASE}${request.url}`;
  if (request.params) {
    // As RTK Query's fetchBaseQuery does: undefined values are left out, the rest go through
    // URLSearchParams (so an array is sent comma-joined).
    const defined = Object.entries(request.params).filter(([, v]) => v !== undefined);
    const query = new URLSearchParams(defined as [string, string][]).toString();
    if (query) url += `${url.includes('?') ? '&' : '?'}${query}`;
  }
  const headers = new Headers();
  const token = (api.getState() as { auth: { token: string | null } }).auth.token;
  if (token) headers.set('Authorization', token);
  let body = (request.body ?? undefined) as BodyInit | undefined;
  if (isJsonBody(body)) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(body);
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, HTTP_TIMEOUT_MS);
  const cancel = () => controller.abort();
  if (api.signal.aborted) cancel();
  api.signal.addEventListener('abort', cancel);
  try {
    const response = await fetch(
      new Request(url, { method: request.method ?? 'GET', headers, body, signal: controller.signal }),
    );
    // JSON envelopes are parsed; anything else (an export) passes through as a Blob.
    const type = response.headers.get('content-type') ?? '';
    const data: unknown = await (type.includes('application/json') ? response.json() : response.blob());
    // The server answers every call with HTTP 200 and a code in the envelope; any other status
    // comes from something in between (a proxy, a gateway).
    if (!response.ok) return { error: { code: 0, msg: Messages.requestFailed } };
    return { data };
  } catch (error) {
    const timeout = timedOut || /timeout/i.test(String(error));
    return { error: { code: 0, msg: timeout ? Messages.timeout : Messages.requestFailed } };
  } finally {
    clearTimeout(timer);
    api.signal.removeEventListener('abort', cancel);
  }
}

type Query = BaseQueryFn<string | FetchArgs, unknown, ApiError>;
export type QueryResult = Awaited<ReturnType<Query>>;

const send: Query = async (args, api) => {
  const request = typeof args === 'string' ? { url: args } : args;
  const method = (request.method ?? 'GET').toUpperCase();
  // The login's calls (the password and the code step) never raise the overlay.
  const flagged = !request.url.startsWith(LOGIN_PATH) && (method === 'GET' || method === 'POST');
  if (flagged) api.dispatch(requestStarted());
  try {
    const result = await rawFetch(request, api);
    if ('error' in result) return result;
    const body = result.data;
    if (typeof Blob !== 'undefined' && body instanceof Blob) return { data: body };
    const { code, msg, data } = (body ?? {}) as { code?: number; msg?: string; data?: unknown };
    if (code === Code.ok) return { data };
    if (code === Code.notLoggedIn || code === Code.sessionEnded) {
      if (Date.now() > sessionEndExpectedUntil) {
        api.dispatch(loggedOut());
        redirectToLogin();
      }
      return { error: { code, msg: msg || Messages.busy } };
    }
    return { error: { code: typeof code === 'number' ? code : Code.internal, msg: msg || Messages.busy } };
  } finally {
    if (flagged) api.dispatch(requestFinished());
  }
};

/** send(), then the shell's hook (which may send the same request again, the overlay down meanwhile). */
export const baseQuery: Query = async (args, api) => {
  const sentAt = Date.now();
  const result = await send(args, api, {});
  return answerHook.current ? answerHook.current(result, async () => send(args, api, {}), sentAt) : result;
};
