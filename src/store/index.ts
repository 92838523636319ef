// The store (./store) and its typed hooks (./hooks) behind one path. The hooks ride in the entry
// chunk: the login page, the shell and every page use them, and on their own they would be a
// request of a few bytes on every route.
export { createAppStore, readStoredAuth, rootReducer, type AppDispatch, type AppStore, type RootState } from './store';
export { useAppDispatch, useAppSelector } from './hooks';
