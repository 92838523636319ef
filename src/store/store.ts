/** The Redux store: its reducers and the effects that follow actions. Imported through ./index. */
import { combineReducers, configureStore, isRejectedWithValue, type Middleware } from '@reduxjs/toolkit';
import type { baseApi } from '../services/baseApi';
import type { ApiError } from '../services/http';
import authReducer, { loggedIn, loggedOut, readStoredAuth, TOKEN_KEY, USERNAME_KEY, type AuthState } from './authSlice';
import layoutReducer from './layoutSlice';
import loadingReducer from './loadingSlice';
import { loadedApi, middlewareSlot, whenApiLoaded } from './lateApi';
import toastReducer, { toastShown } from './toastSlice';

const reducers = {
  auth: authReducer,
  layout: layoutReducer,
  loading: loadingReducer,
  toast: toastReducer,
};
/** The store's own slices; the RTK Query api's joins them once a screen loads it (./lateApi). */
export const rootReducer = combineReducers(reducers);
export type RootState = ReturnType<typeof rootReducer> & {
  /** Present once a screen has loaded the api (never on the login route). */
  api?: ReturnType<typeof baseApi.reducer>;
};

/** Endpoints whose callers show their errors themselves. */
const SHOWN_BY_CALLER = /^(login|setupTotp|enableTotp|disableTotp|verifyTotp)$/;

export function createAppStore(preloaded?: { auth?: AuthState }, storage: Storage | null = window.localStorage) {
  // What follows an action, once the reducers have seen it. A plain middleware rather than RTK's
  // listener middleware: these three reactions are all the app needs, and the listener machinery
  // would add ~1 KB to the login route.
  const effects: Middleware<object, RootState> = (api) => (next) => (action) => {
    const result = next(action);
    if (loggedIn.match(action)) {
      // The token and user name live in localStorage under the keys of SPEC.md.
      storage?.setItem(TOKEN_KEY, action.payload.token);
      storage?.setItem(USERNAME_KEY, action.payload.username);
    } else if (loggedOut.match(action)) {
      storage?.removeItem(TOKEN_KEY);
      storage?.removeItem(USERNAME_KEY);
      // Nothing cached for one manager may show to the next one.
      const rtkApi = loadedApi();
      if (rtkApi) api.dispatch(rtkApi.util.resetApiState());
    } else if (isRejectedWithValue(action)) {
      // Errors reach the user as a toast; a 301/302 is shown by the login page instead.
      const error = (action as { payload?: ApiError }).payload;
      const meta = (action as { meta?: { arg?: { endpointName?: string } } }).meta;
      // The login form and the authenticator dialogs show their own errors; a 426 shows the binding
      // screen instead (SecondFactor).
      if (error && ![301, 302, 426].includes(error.code) && !SHOWN_BY_CALLER.test(meta?.arg?.endpointName ?? '')) {
        api.dispatch(toastShown(error.msg, 'error'));
      }
    }
    return result;
  };
  const late = middlewareSlot();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloaded ? (preloaded as Partial<ReturnType<typeof rootReducer>>) : undefined,
    middleware: (getDefault) => getDefault().prepend(effects).concat(late.slot),
    devTools: process.env.NODE_ENV !== 'production',
  });
  whenApiLoaded(({ api, setupListeners }) => {
    // The reducer first, so the api's middleware never sees a state without its slice.
    store.replaceReducer(
      combineReducers({ ...reducers, [api.reducerPath]: api.reducer }) as unknown as typeof rootReducer,
    );
    late.fill(api.middleware);
    setupListeners(store.dispatch);
  });
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
export { readStoredAuth };
