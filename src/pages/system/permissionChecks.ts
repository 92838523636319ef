/**
 * The bind dialog's checkbox tree as a set of checked ids over the server's permission tree.
 *
 * Grants are closed upward on the server (an action brings its page, a page its group), so a node can
 * be held while only some of its children are: a page granted "view only". The box of such a node is
 * indeterminate; a node and its whole subtree held is checked.
 * - Checking a node grants what it shows, never what it does: the node, the pages and groups below it
 *   and its ancestors, no action and no page that changes a money rule (ticking 会员列表 must not also
 *   grant 调整余额: a read-only role is the easy one to make). Checking again a node whose pages and
 *   groups are all held grants its whole subtree, actions included; an action is granted by its own box.
 * - Unchecking a node unchecks its subtree; a group left with no checked child is unchecked too
 *   (a page stays: it may be held on its own).
 * - Always-granted nodes (change own password) are shown checked and cannot change; they are never sent.
 */
import { MONEY_PAGES } from '../../../domain/grants';
import type { PermissionTreeNode } from '../../services/generated/system';

export type CheckState = 'checked' | 'indeterminate' | 'unchecked';

function walk(nodes: PermissionTreeNode[], visit: (n: PermissionTreeNode, parents: PermissionTreeNode[]) => void) {
  const go = (list: PermissionTreeNode[], parents: PermissionTreeNode[]) => {
    for (const n of list) {
      visit(n, parents);
      go(n.children, [...parents, n]);
    }
  };
  go(nodes, []);
}

/** The ids the server says the role holds (always-granted ones included: they show checked). */
export function initialChecked(tree: PermissionTreeNode[]): Set<number> {
  const out = new Set<number>();
  walk(tree, (n) => {
    if (n.checked || n.always) out.add(n.id);
  });
  return out;
}

function subtree(node: PermissionTreeNode): PermissionTreeNode[] {
  const out: PermissionTreeNode[] = [node];
  for (const c of node.children) out.push(...subtree(c));
  return out;
}

function pathTo(tree: PermissionTreeNode[], id: number): PermissionTreeNode[] | null {
  for (const n of tree) {
    if (n.id === id) return [n];
    const below = pathTo(n.children, id);
    if (below) return [n, ...below];
  }
  return null;
}

/** The set after the user (un)checks node `id`. */
export function toggle(tree: PermissionTreeNode[], checked: ReadonlySet<number>, id: number, on: boolean): Set<number> {
  const path = pathTo(tree, id);
  const next = new Set(checked);
  if (!path) return next;
  const node = path[path.length - 1];
  if (node.always) return next;
  // What a first tick grants below the node: pages and groups, never an action or a page that changes
  // a money rule (it is granted by its own box, or by the second tick).
  const shown = (n: PermissionTreeNode) => n.kind !== 'action' && !MONEY_PAGES.has(n.code);
  const below = subtree(node).filter((n) => n !== node && !n.always);
  // A second tick, on a node held with everything it shows already held, grants everything below it.
  const all = checked.has(node.id) && below.filter(shown).every((n) => checked.has(n.id));
  for (const n of subtree(node)) {
    if (n.always) continue;
    if (!on) next.delete(n.id);
    else if (all || n === node || shown(n)) next.add(n.id);
  }
  if (on) {
    for (const a of path) next.add(a.id);
  } else {
    for (const a of path.slice(0, -1).reverse()) {
      if (a.kind === 'group' && !a.children.some((c) => !c.always && next.has(c.id))) next.delete(a.id);
    }
  }
  return next;
}

export function stateOf(node: PermissionTreeNode, checked: ReadonlySet<number>): CheckState {
  if (!checked.has(node.id)) return 'unchecked';
  return subtree(node).every((n) => checked.has(n.id)) ? 'checked' : 'indeterminate';
}

/** What role/bind receives: the held ids, without the always-granted ones. */
export function permissionIdsOf(tree: PermissionTreeNode[], checked: ReadonlySet<number>): number[] {
  const out: number[] = [];
  walk(tree, (n) => {
    if (!n.always && checked.has(n.id)) out.push(n.id);
  });
  return out;
}
