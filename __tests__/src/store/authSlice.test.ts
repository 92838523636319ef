import authReducer, {
  loggedIn,
  loggedOut,
  readStoredAuth,
  TOKEN_KEY,
  USERNAME_KEY,
} from '../../../src/store/authSlice';
import { createAppStore } from '../../../src/store';

describe('authSlice', () => {
  beforeEach(() => localStorage.clear());

  it('uses the storage keys of SPEC.md: lz-admin-token and uname', () => {
    expect(TOKEN_KEY).toBe('lz-admin-token');
    expect(USERNAME_KEY).toBe('uname');
  });

  it('starts logged out', () => {
    expect(authReducer(undefined, { type: '@@init' })).toEqual({ token: null, username: null });
  });

  it('stores the token and the user name on login', () => {
    const state = authReducer(undefined, loggedIn({ token: 'abc', username: 'admin' }));
    expect(state).toEqual({ token: 'abc', username: 'admin' });
  });

  it('clears both on logout', () => {
    const state = authReducer({ token: 'abc', username: 'admin' }, loggedOut());
    expect(state).toEqual({ token: null, username: null });
  });

  it('reads a stored session back from localStorage', () => {
    localStorage.setItem('lz-admin-token', 't1');
    localStorage.setItem('uname', 'boss');
    expect(readStoredAuth()).toEqual({ token: 't1', username: 'boss' });
    localStorage.clear();
    expect(readStoredAuth()).toEqual({ token: null, username: null });
  });

  it('writes the session through to localStorage and removes it on logout', () => {
    const store = createAppStore(undefined, localStorage);
    store.dispatch(loggedIn({ token: 'tok', username: 'admin' }));
    expect(localStorage.getItem('lz-admin-token')).toBe('tok');
    expect(localStorage.getItem('uname')).toBe('admin');
    store.dispatch(loggedOut());
    expect(localStorage.getItem('lz-admin-token')).toBeNull();
    expect(localStorage.getItem('uname')).toBeNull();
  });
});
