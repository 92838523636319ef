import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Browser storage keys fixed by SPEC.md §3 and §9. */
export const TOKEN_KEY = 'lz-admin-token';
export const USERNAME_KEY = 'uname';

export interface AuthState {
  token: string | null;
  username: string | null;
}

export function readStoredAuth(storage: Pick<Storage, 'getItem'> = window.localStorage): AuthState {
  return { token: storage.getItem(TOKEN_KEY), username: storage.getItem(USERNAME_KEY) };
}

const initialState: AuthState = { token: null, username: null };

/** Pure reducers; the store's listener writes the state through to localStorage (see ./index.ts). */
const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    loggedIn(_state, action: PayloadAction<{ token: string; username: string }>) {
      return { token: action.payload.token, username: action.payload.username };
    },
    loggedOut() {
      return { token: null, username: null };
    },
  },
});

export const { loggedIn, loggedOut } = authSlice.actions;
export default authSlice.reducer;
