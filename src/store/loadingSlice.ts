import { createSlice } from '@reduxjs/toolkit';

/** How many requests flagged as loading are pending; the overlay shows while it is above zero. */
export interface LoadingState {
  count: number;
}

const loadingSlice = createSlice({
  name: 'loading',
  initialState: { count: 0 } as LoadingState,
  reducers: {
    requestStarted(state) {
      state.count += 1;
    },
    requestFinished(state) {
      state.count = Math.max(0, state.count - 1);
    },
  },
});

export const { requestStarted, requestFinished } = loadingSlice.actions;
export default loadingSlice.reducer;
