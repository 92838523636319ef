/**
 * Pure helpers over the server menu (SPEC.md §3): a leaf's `layout` is both its route and its
 * breadcrumb key. Paths compare case-insensitively, like the router.
 */
import type { MenuEntry } from '../services/generated/auth';

export const pathKey = (path: string) => path.replace(/\/+$/, '').toLowerCase();

export const isLeaf = (entry: MenuEntry) => entry.sub.length === 0;

/** Breadcrumb map: leaf path → titles from the top group down to the page. */
export function breadcrumbMap(menu: MenuEntry[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const walk = (entries: MenuEntry[], trail: string[]) => {
    for (const e of entries) {
      const titles = [...trail, e.title];
      if (isLeaf(e)) map.set(pathKey(e.layout), titles);
      else walk(e.sub, titles);
    }
  };
  walk(menu, []);
  return map;
}

/** Ids of the entries from the top down to the leaf of `pathname`; empty when the menu has no such leaf. */
export function activeTrail(menu: MenuEntry[], pathname: string): number[] {
  const key = pathKey(pathname);
  for (const e of menu) {
    if (isLeaf(e)) {
      if (pathKey(e.layout) === key) return [e.id];
    } else {
      const below = activeTrail(e.sub, pathname);
      if (below.length) return [e.id, ...below];
    }
  }
  return [];
}

/** Every leaf with the titles of the groups above it, in menu order. */
export function menuLeaves(
  menu: MenuEntry[],
  groups: MenuEntry[] = [],
): Array<{ entry: MenuEntry; groups: MenuEntry[] }> {
  const out: Array<{ entry: MenuEntry; groups: MenuEntry[] }> = [];
  for (const e of menu) {
    if (isLeaf(e)) out.push({ entry: e, groups });
    else out.push(...menuLeaves(e.sub, [...groups, e]));
  }
  return out;
}
