/**
 * The RTK Query api joins the store when a screen loads it (src/store/lateApi.ts): the login route's
 * store has no api slice; importing src/services/baseApi gives it the reducer and the middleware, and
 * queries then run and cache as before. Each test gets fresh modules, so "not loaded yet" is real.
 */
import { envelope, mockFetch } from '../mockFetch';

const storeModule = () => jest.requireActual('../../../src/store') as typeof import('../../../src/store');
const authModule = () =>
  jest.requireActual('../../../src/store/authSlice') as typeof import('../../../src/store/authSlice');
/** The generated auth endpoints (which load baseApi). */
const authApi = () =>
  (jest.requireActual('../../../src/services/generated/auth') as typeof import('../../../src/services/generated/auth'))
    .api;
const queries = (state: object) => Object.keys((state as { api: { queries: object } }).api.queries);

describe('the api joins the store late', () => {
  it('a store made before the api loads gets its reducer and middleware when it does', async () => {
    await jest.isolateModulesAsync(async () => {
      const store = storeModule().createAppStore({ auth: { token: 'tok', username: 'admin' } }, null);
      expect(Object.keys(store.getState()).sort()).toEqual(['auth', 'layout', 'loading', 'toast']);
      const api = authApi();
      expect(store.getState()).toHaveProperty('api');
      mockFetch(() => envelope({ codes: ['manager:view'], tree: [] }));
      // The middleware is in: the query runs, lands in the cache and the overlay counter comes back to 0.
      const run = store.dispatch(api.endpoints.getMenu.initiate());
      await expect(run.unwrap()).resolves.toEqual({ codes: ['manager:view'], tree: [] });
      expect(api.endpoints.getMenu.select()(store.getState() as never).data).toEqual({
        codes: ['manager:view'],
        tree: [],
      });
      expect(store.getState().loading.count).toBe(0);
      run.unsubscribe();
    });
  });

  it('a store made after the api loaded has it from the start, and logout empties its cache', async () => {
    await jest.isolateModulesAsync(async () => {
      const api = authApi();
      const store = storeModule().createAppStore({ auth: { token: 'tok', username: 'admin' } }, null);
      expect(store.getState()).toHaveProperty('api');
      const fetchMock = mockFetch(() => envelope({ codes: [], tree: [] }));
      const run = store.dispatch(api.endpoints.getMenu.initiate());
      await run;
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(queries(store.getState())).toHaveLength(1);
      store.dispatch(authModule().loggedOut());
      expect(queries(store.getState())).toHaveLength(0);
      run.unsubscribe();
    });
  });

  it('a store whose api never loads (the login route) logs out without it', async () => {
    await jest.isolateModulesAsync(async () => {
      const store = storeModule().createAppStore({ auth: { token: 'tok', username: 'admin' } }, null);
      store.dispatch(authModule().loggedOut());
      expect(store.getState().auth).toEqual({ token: null, username: null });
      expect(store.getState()).not.toHaveProperty('api');
    });
  });
});
