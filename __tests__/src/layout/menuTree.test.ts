import { activeTrail, breadcrumbMap, menuLeaves, pathKey } from '../../../src/layout/menuTree';
import { MENU } from '../shellHarness';

describe('menuTree', () => {
  it('maps every leaf path to its titles from the top group down', () => {
    const map = breadcrumbMap(MENU);
    expect(map.get('/layout/systemlayout/managerlayout')).toEqual(['系统管理', '管理员']);
    expect(map.get(pathKey('/layout/memberLayout/deep/page'))).toEqual(['会员管理', '深层分组', '深层页面']);
    expect(map.get(pathKey('/layout/transferLayout'))).toEqual(['转账记录']);
    expect(map.has(pathKey('/layout/systemLayout'))).toBe(false);
    expect(map.size).toBe(6);
  });

  it('compares paths without case and trailing slashes', () => {
    expect(pathKey('/Layout/SystemLayout/')).toBe('/layout/systemlayout');
  });

  it('finds the ids from the top down to the current page', () => {
    expect(activeTrail(MENU, '/layout/memberLayout/deep/page')).toEqual([200, 250, 251]);
    expect(activeTrail(MENU, '/Layout/transferLayout/')).toEqual([300]);
    expect(activeTrail(MENU, '/layout/welcome')).toEqual([]);
  });

  it('lists the leaves in menu order with their groups', () => {
    const leaves = menuLeaves(MENU);
    expect(leaves.map((l) => [l.entry.id, l.groups.map((g) => g.id)])).toEqual([
      [110, [100]],
      [120, [100]],
      [210, [200]],
      [251, [200, 250]],
      [300, []],
      [900, []],
    ]);
  });
});
