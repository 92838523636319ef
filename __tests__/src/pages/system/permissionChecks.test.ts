/** The bind tree's ticks on the real permission tree: what one tick and a second tick grant. */
import { permissionTree, type PermissionNode } from '../../../../domain/permissions';
import { toggle } from '../../../../src/pages/system/permissionChecks';
import type { PermissionTreeNode } from '../../../../src/services/generated/system';

const asTree = (nodes: PermissionNode[]): PermissionTreeNode[] =>
  nodes.map((n) => ({
    id: n.id,
    code: n.code,
    title: n.title,
    kind: n.kind,
    checked: false,
    always: Boolean(n.always),
    children: asTree(n.children ?? []),
  }));
const tree = asTree(permissionTree);
const byCode = new Map<string, number>();
const idCodes = new Map<number, string>();
const index = (ns: PermissionTreeNode[]) =>
  ns.forEach((n) => {
    byCode.set(n.code, n.id);
    idCodes.set(n.id, n.code);
    index(n.children);
  });
index(tree);
const tick = (held: Set<number>, code: string) => toggle(tree, held, byCode.get(code)!, true);
const codes = (held: Set<number>) => [...held].map((id) => idCodes.get(id)!).sort();

describe('the bind tree’s ticks', () => {
  it('grants what a group shows on the first tick, its actions only on a second one with every page held', () => {
    const page = tick(new Set(), 'withdraw:view');
    expect(codes(page)).toEqual(['withdraw', 'withdraw:view']);
    // The group is held now (one page): a tick adds its other pages, no action.
    const pages = tick(page, 'withdraw');
    expect(codes(pages)).toEqual(['extract:view', 'withdraw', 'withdraw:view', 'withdrawSetting:view']);
    // Every page held: the next tick grants everything below.
    expect(codes(tick(pages, 'withdraw'))).toEqual(
      expect.arrayContaining([
        'withdraw:audit',
        'withdraw:pay',
        'extract:audit',
        'extract:pay',
        'withdrawSetting:update',
      ]),
    );
  });

  it('never grants 充值设置 (whose page code saves a money rule) with its group’s first tick', () => {
    const held = codes(tick(new Set(), 'deposit'));
    expect(held).toContain('deposit:view');
    expect(held).not.toContain('depositSetting:update');
    expect(held).not.toContain('deposit:audit');
  });
});
