import { combineReducers, configureStore, createListenerMiddleware, isRejectedWithValue } from '@reduxjs/toolkit';
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

export function createAppStore(preloaded?: { auth?: AuthState }, storage: Storage | null = window.localStorage) {
  const listener = createListenerMiddleware();
  // The token and user name live in localStorage under the keys of SPEC.md.
  listener.startListening({
    actionCreator: loggedIn,
    effect: (action) => {
      storage?.setItem(TOKEN_KEY, action.payload.token);
      storage?.setItem(USERNAME_KEY, action.payload.username);
    },
  });
  listener.startListening({
    actionCreator: loggedOut,
    effect: (_action, api) => {
      storage?.removeItem(TOKEN_KEY);
      storage?.removeItem(USERNAME_KEY);
      // Nothing cached for one manager may show to the next one.
      api.dispatch(baseApi.util.resetApiState());
    },
  });
  // Errors reach the user as a toast; a 301/302 is shown by the login page instead.
  listener.startListening({
    predicate: (action) => isRejectedWithValue(action),
    effect: (action, api) => {
      const error = (action as { payload?: ApiError }).payload;
      if (!error || error.code === 301 || error.code === 302) return;
      const meta = (action as { meta?: { arg?: { endpointName?: string } } }).meta;
      if (meta?.arg?.endpointName === 'login') return; // the login form shows its own error
      api.dispatch(toastShown(error.msg, 'error'));
    },
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloaded ? (preloaded as Partial<RootState>) : undefined,
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(baseApi.middleware),
    devTools: process.env.NODE_ENV !== 'production',
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
export { readStoredAuth };
