/**
 * The RTK Query api joins the store when the first screen that uses it loads (importing
 * src/services/baseApi.ts calls apiLoaded): the login route never downloads RTK Query. A store made
 * before that gets the api's reducer and middleware then; a store made after gets them at once.
 */
import type { Middleware, Reducer, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';

export interface LateApi {
  api: {
    reducerPath: 'api';
    reducer: Reducer;
    middleware: Middleware;
    util: { resetApiState: () => UnknownAction };
  };
  /** RTK Query's setupListeners: refetch on focus and reconnect where an endpoint asks for it. */
  setupListeners: (dispatch: ThunkDispatch<any, any, any>) => unknown;
}

let loaded: LateApi | null = null;
const waiting = new Set<(late: LateApi) => void>();

/** Called once, by src/services/baseApi.ts. */
export function apiLoaded(late: LateApi) {
  loaded = late;
  const stores = [...waiting];
  waiting.clear();
  for (const attach of stores) attach(late);
}

/** `attach` runs once the api is loaded: now if it is already. */
export function whenApiLoaded(attach: (late: LateApi) => void) {
  if (loaded) attach(loaded);
  else waiting.add(attach);
}

/** The api, when a screen has loaded it (null on the login route). */
export function loadedApi(): LateApi['api'] | null {
  return loaded?.api ?? null;
}

/**
 * A middleware that passes actions through until `fill` gives it the one to run instead (the api's,
 * added after the store was made).
 */
export function middlewareSlot() {
  let fill = (_middleware: Middleware): void => {
    throw new Error('middlewareSlot: fill() before the store was made');
  };
  const slot: Middleware = (store) => (next) => {
    let handle = next;
    fill = (middleware) => {
      handle = middleware(store)(next);
    };
    return (action) => handle(action);
  };
  return { slot, fill: (middleware: Middleware) => fill(middleware) };
}
