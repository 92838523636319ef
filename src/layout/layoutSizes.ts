/** Shell dimensions of SPEC.md §9, in px. */
export const SIDEBAR_WIDTH = 160;
export const SIDEBAR_COLLAPSED_WIDTH = 48;
export const HEADER_PADDING_LEFT = 170;
export const HEADER_COLLAPSED_PADDING_LEFT = 58;
export const MAIN_PADDING_SMALL = 10;
export const MAIN_PADDING = 16;
/** Delay before the collapsed sidebar's group popup shows or hides. */
export const MENU_POPUP_DELAY_MS = 300;
/** Delay before the header's account dropdown shows or hides. */
export const DROPDOWN_DELAY_MS = 150;

export const sidebarWidth = (collapsed: boolean) => (collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH);
export const headerPaddingLeft = (collapsed: boolean) =>
  collapsed ? HEADER_COLLAPSED_PADDING_LEFT : HEADER_PADDING_LEFT;
export const mainPadding = (small: boolean) => (small ? MAIN_PADDING_SMALL : MAIN_PADDING);
