import layoutReducer, {
  breakpointOf,
  MEDIUM_MAX,
  setCollapsed,
  SMALL_MAX,
  toggleSidebar,
  widthChanged,
  type LayoutState,
} from '../../../src/store/layoutSlice';

const init = (): LayoutState => layoutReducer(undefined, { type: '@@init' });

describe('layoutSlice', () => {
  it('has the breakpoints of SPEC.md §9: 800 and 1200 px', () => {
    expect(SMALL_MAX).toBe(800);
    expect(MEDIUM_MAX).toBe(1200);
  });

  it.each([
    [320, 'small'],
    [800, 'small'],
    [801, 'medium'],
    [1200, 'medium'],
    [1201, 'large'],
    [1400, 'large'],
  ])('calls a width of %i px %s', (width, expected) => {
    expect(breakpointOf(width)).toBe(expected);
  });

  it('starts expanded on a large screen', () => {
    expect(init()).toEqual({ collapsed: false, breakpoint: 'large' });
  });

  it('toggles and sets the sidebar', () => {
    const collapsed = layoutReducer(init(), toggleSidebar());
    expect(collapsed.collapsed).toBe(true);
    expect(layoutReducer(collapsed, toggleSidebar()).collapsed).toBe(false);
    expect(layoutReducer(init(), setCollapsed(true)).collapsed).toBe(true);
  });

  it('collapses the sidebar by itself at 800 px and below', () => {
    const state = layoutReducer(init(), widthChanged(800));
    expect(state).toEqual({ collapsed: true, breakpoint: 'small' });
  });

  it('expands it again when the window grows out of small', () => {
    const small = layoutReducer(init(), widthChanged(640));
    expect(layoutReducer(small, widthChanged(1200))).toEqual({ collapsed: false, breakpoint: 'medium' });
    expect(layoutReducer(small, widthChanged(1400))).toEqual({ collapsed: false, breakpoint: 'large' });
  });

  it('keeps a manual choice while the breakpoint does not change', () => {
    const small = layoutReducer(init(), widthChanged(700));
    const opened = layoutReducer(small, setCollapsed(false));
    expect(layoutReducer(opened, widthChanged(760))).toEqual({ collapsed: false, breakpoint: 'small' });
    const folded = layoutReducer(init(), setCollapsed(true));
    expect(layoutReducer(folded, widthChanged(1300))).toEqual({ collapsed: true, breakpoint: 'large' });
  });

  it('moves between medium and large without touching the sidebar', () => {
    const folded = layoutReducer(init(), setCollapsed(true));
    const medium = layoutReducer(folded, widthChanged(1000));
    expect(medium).toEqual({ collapsed: true, breakpoint: 'medium' });
    const expanded = layoutReducer(layoutReducer(init(), widthChanged(1000)), widthChanged(1500));
    expect(expanded).toEqual({ collapsed: false, breakpoint: 'large' });
  });
});
