import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type ToastSeverity = 'success' | 'error' | 'warning' | 'info';
export interface Toast {
  id: number;
  msg: string;
  severity: ToastSeverity;
}
export interface ToastState {
  items: Toast[];
  nextId: number;
}

const toastSlice = createSlice({
  name: 'toast',
  initialState: { items: [], nextId: 1 } as ToastState,
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<{ msg: string; severity: ToastSeverity }>) {
        // The same message twice in a row (a burst of failing calls) is shown once.
        const last = state.items[state.items.length - 1];
        if (last && last.msg === action.payload.msg && last.severity === action.payload.severity) return;
        state.items.push({ id: state.nextId, ...action.payload });
        state.nextId += 1;
      },
      prepare(msg: string, severity: ToastSeverity = 'success') {
        return { payload: { msg, severity } };
      },
    },
    toastClosed(state, action: PayloadAction<number>) {
      state.items = state.items.filter((t) => t.id !== action.payload);
    },
    /**
     * A refusal the caller shows in place (a form dialog's alert): the error toast the store raised for
     * it goes, so the operator does not read it twice. Only a toast raised since `since` (the `nextId`
     * read before the call) and with the same words: an older one, of another call, stays.
     */
    errorShownInPlace(state, action: PayloadAction<{ msg: string; since: number }>) {
      const { msg, since } = action.payload;
      for (let i = state.items.length - 1; i >= 0; i--) {
        const t = state.items[i];
        if (t.id >= since && t.severity === 'error' && t.msg === msg) {
          state.items.splice(i, 1);
          return;
        }
      }
    },
  },
});

export const { toastShown, toastClosed, errorShownInPlace } = toastSlice.actions;
export default toastSlice.reducer;
