import { closeTabs, HOME_KEY, nextTab, parseTabs, TAB_LIMIT, visit, type OpenTab } from '../../../src/layout/openTabs';

const page = (n: number) => ({ key: `/layout/p${n}`, url: `/layout/p${n}?page=${n}`, title: `页面${n}` });

describe('open tabs', () => {
  it('starts with 首页 and adds a page once, keeping the URL it was left at', () => {
    let tabs = parseTabs(undefined);
    expect(tabs.map((t) => t.key)).toEqual([HOME_KEY]);
    tabs = visit(tabs, page(1), 10);
    tabs = visit(tabs, { ...page(1), url: '/layout/p1?status=0' }, 20);
    expect(tabs).toHaveLength(2);
    expect(tabs[1]).toEqual({ key: '/layout/p1', url: '/layout/p1?status=0', title: '页面1', at: 20 });
  });

  it('closes the tab used longest ago past the limit, never 首页 or the one just opened', () => {
    let tabs = parseTabs([]);
    for (let i = 1; i <= TAB_LIMIT; i += 1) tabs = visit(tabs, page(i), i);
    tabs = visit(tabs, page(1), 100); // p1 used again: p2 is now the oldest
    tabs = visit(tabs, page(99), 101);
    expect(tabs).toHaveLength(TAB_LIMIT + 1);
    expect(tabs[0].key).toBe(HOME_KEY);
    expect(tabs.map((t) => t.key)).not.toContain('/layout/p2');
    expect(tabs.map((t) => t.key)).toContain('/layout/p1');
    expect(tabs.at(-1)?.key).toBe('/layout/p99');
  });

  it('closes tabs but 首页, and goes next to the most recently shown', () => {
    let tabs: OpenTab[] = parseTabs([]);
    tabs = visit(visit(visit(tabs, page(1), 1), page(2), 3), page(3), 2);
    const rest = closeTabs(tabs, ['/layout/p2', HOME_KEY]);
    expect(rest.map((t) => t.key)).toEqual([HOME_KEY, '/layout/p1', '/layout/p3']);
    expect(nextTab(rest).key).toBe('/layout/p3');
    expect(nextTab(closeTabs(rest, ['/layout/p1', '/layout/p3'])).key).toBe(HOME_KEY);
  });

  it('reads stored tabs defensively: only console URLs of their own page, no duplicates, 首页 first', () => {
    const tabs = parseTabs([
      { key: '/layout/p1', url: '/layout/p1?x=1', title: '一', at: 5 },
      { key: '/layout/p1', url: '/layout/p1', title: '重复', at: 6 },
      { key: '/layout/p2', url: 'https://evil.example/', title: '外链', at: 7 },
      { key: '/other', url: '/other', title: '外', at: 8 },
      { key: HOME_KEY, url: HOME_KEY, title: '首页', at: 9 },
      'junk',
    ]);
    expect(tabs.map((t) => [t.key, t.url])).toEqual([
      [HOME_KEY, HOME_KEY],
      ['/layout/p1', '/layout/p1?x=1'],
    ]);
    expect(tabs[0].at).toBe(9);
  });
});
