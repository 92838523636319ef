/** The menu's groups and pages carry the titles of DOMAIN.md §2's menu table, word for word. */
import fs from 'node:fs';
import path from 'node:path';
import { permissionTree } from '../../domain/permissions';

const DOMAIN = fs.readFileSync(path.resolve(__dirname, '../../../shared/DOMAIN.md'), 'utf8');

/** The table after "Menu (titles as shown…": group key, its title, and `tail title` leaves. */
function menuTable() {
  const start = DOMAIN.indexOf('Menu (titles as shown');
  const rows = DOMAIN.slice(start).split('\n').slice(3);
  const out: { group: string; title: string; leaves: [string, string][] }[] = [];
  for (const line of rows) {
    if (!line.startsWith('|')) break;
    const [group, title, leaves] = line
      .split('|')
      .slice(1, 4)
      .map((c) => c.trim());
    out.push({
      group,
      title,
      leaves: leaves.startsWith('(leaf') ? [] : leaves.split(' · ').map((l) => l.split(' ') as [string, string]),
    });
  }
  return out;
}

describe('menu titles', () => {
  it('reads the table', () => expect(menuTable().length).toBeGreaterThanOrEqual(14));

  it.each(menuTable())('$group is $title, with its pages', ({ group, title, leaves }) => {
    const node = permissionTree.find((n) => n.name === group);
    expect(node?.title).toBe(title);
    for (const [tail, leafTitle] of leaves) {
      expect({ tail, title: node?.children?.find((c) => c.name === tail)?.title }).toEqual({ tail, title: leafTitle });
    }
  });
});
