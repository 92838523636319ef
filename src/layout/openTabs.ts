/**
 * The pages an operator has open, as tabs under the header (标签页): each keeps its own URL (filters,
 * page), the welcome page is always the first and cannot be closed, and past TAB_LIMIT the tab used
 * longest ago closes. Pure functions over the list; TabStrip keeps it per manager (layout/prefs), so the
 * tabs come back after a reload.
 */
export interface OpenTab {
  /** The page's path as the router compares it (pathKey): one tab per page. */
  key: string;
  /** Where the tab goes back to: the page with the filters and page it was left at. */
  url: string;
  title: string;
  /** When the tab was last shown (ms), to know which one to close past the limit. */
  at: number;
}

export const HOME_KEY = '/layout/welcome';
export const HOME_TITLE = '首页';
/** Tabs besides 首页. */
export const TAB_LIMIT = 10;
const MAX_URL = 2000;

const home = (at = 0): OpenTab => ({ key: HOME_KEY, url: HOME_KEY, title: HOME_TITLE, at });

/** What was stored, made valid: only console URLs, no duplicates, 首页 first, at most the limit. */
export function parseTabs(stored: unknown): OpenTab[] {
  const tabs: OpenTab[] = [];
  const seen = new Set<string>();
  for (const v of Array.isArray(stored) ? stored : []) {
    const t = v as Partial<OpenTab>;
    if (typeof t?.key !== 'string' || typeof t.url !== 'string' || typeof t.title !== 'string') continue;
    if (!t.key.startsWith('/layout/') || !t.url.toLowerCase().startsWith(t.key) || t.url.length > MAX_URL) continue;
    if (t.key === HOME_KEY || seen.has(t.key) || t.title.length > 40) continue;
    seen.add(t.key);
    tabs.push({ key: t.key, url: t.url, title: t.title, at: typeof t.at === 'number' ? t.at : 0 });
  }
  const homeAt = (Array.isArray(stored) ? (stored as Partial<OpenTab>[]) : []).find((t) => t?.key === HOME_KEY)?.at;
  return [home(typeof homeAt === 'number' ? homeAt : 0), ...tabs.slice(-TAB_LIMIT)];
}

/**
 * The tabs after the operator is on `page` at `now`: its tab shows the current URL and becomes the most
 * recent; a new one goes at the end, and past the limit the least recently shown other tab closes.
 */
export function visit(tabs: OpenTab[], page: Omit<OpenTab, 'at'>, now: number): OpenTab[] {
  const list = tabs.length && tabs[0].key === HOME_KEY ? tabs : [home(), ...tabs];
  const at = list.findIndex((t) => t.key === page.key);
  if (at >= 0) {
    const t = list[at];
    if (t.url === page.url && t.title === page.title && t.at === now) return tabs;
    return list.map((x, i) =>
      i === at ? { ...x, url: page.url, title: page.key === HOME_KEY ? HOME_TITLE : page.title, at: now } : x,
    );
  }
  let next = [...list, { ...page, at: now }];
  while (next.length - 1 > TAB_LIMIT) {
    const oldest = next.slice(1, -1).reduce((a, b) => (b.at < a.at ? b : a));
    next = next.filter((t) => t !== oldest);
  }
  return next;
}

/** The tabs without `keys` (首页 stays). */
export function closeTabs(tabs: OpenTab[], keys: readonly string[]): OpenTab[] {
  return tabs.filter((t) => t.key === HOME_KEY || !keys.includes(t.key));
}

/** Where to go when the tab on screen closes: the most recently shown of the rest (首页 at least). */
export function nextTab(remaining: OpenTab[]): OpenTab {
  return remaining.reduce((a, b) => (b.at > a.at ? b : a), remaining[0] ?? home());
}
