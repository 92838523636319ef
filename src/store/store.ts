/** The Redux store: its reducers and the effects that follow actions. Imported through ./index. */
import { combineReducers, configureStore, isRejectedWithValue, type Middleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi, type ApiError } from '../services/baseApi';
import authReducer, { loggedIn, loggedOut, readStoredAuth, TOKEN_KEY, USERNAME_KEY, type AuthState } from './authSlice';
import layoutReducer from './layoutSlice';
import loadingReducer from './loadingSlice';
import toastReducer, { toastShown } from './toastSlice';

export const rootReducer = combineReducers({
  auth: authReducer,
  layout: layoutReducer,
  loading: loadingReducer,
  toast: toastReducer,
  [baseApi.reducerPath]: baseApi.reducer,
});
export type RootState = ReturnType<typeof rootReducer>;

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
      api.dispatch(baseApi.util.resetApiState());
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
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloaded ? (preloaded as Partial<RootState>) : undefined,
    middleware: (getDefault) => getDefault().prepend(effects).concat(baseApi.middleware),
    devTools: process.env.NODE_ENV !== 'production',
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
export { readStoredAuth };
