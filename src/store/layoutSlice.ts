import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** SPEC.md §9: small at 800px or less, medium at 1200px or less, large above. */
export const SMALL_MAX = 800;
export const MEDIUM_MAX = 1200;
export type Breakpoint = 'small' | 'medium' | 'large';

export const breakpointOf = (width: number): Breakpoint =>
  width <= SMALL_MAX ? 'small' : width <= MEDIUM_MAX ? 'medium' : 'large';

export interface LayoutState {
  collapsed: boolean;
  breakpoint: Breakpoint;
}

const initialState: LayoutState = { collapsed: false, breakpoint: 'large' };

const layoutSlice = createSlice({
  name: 'layout',
  initialState,
  reducers: {
    toggleSidebar(state) {
      state.collapsed = !state.collapsed;
    },
    setCollapsed(state, action: PayloadAction<boolean>) {
      state.collapsed = action.payload;
    },
    /** The window was resized: entering small collapses the sidebar; leaving small expands it again. */
    widthChanged(state, action: PayloadAction<number>) {
      const next = breakpointOf(action.payload);
      if (next === state.breakpoint) return;
      if (next === 'small') state.collapsed = true;
      else if (state.breakpoint === 'small') state.collapsed = false;
      state.breakpoint = next;
    },
  },
});

export const { toggleSidebar, setCollapsed, widthChanged } = layoutSlice.actions;
export default layoutSlice.reducer;
