import { render } from '@testing-library/react';
import { DefaultMenuIcon, menuIconFor, menuIconTable } from '../../../src/icons/menuIcons';

describe('menuIcons', () => {
  it('has an icon for each name of SPEC.md §2', () => {
    expect(Object.keys(menuIconTable).sort()).toEqual(
      [
        'systemLayout',
        'memberLayout',
        'passLayout',
        'statLayout',
        'withdrawLayout',
        'depositLayout',
        'descLayout',
        'transferLayout',
        'billLayout',
        'pledgeLayout',
        'energyLayout',
        'noticeLayout',
        'settingLayout',
      ].sort(),
    );
  });

  it('gives the named entries distinct icons, none of them the default', () => {
    const icons = Object.values(menuIconTable);
    expect(new Set(icons).size).toBe(icons.length);
    expect(icons).not.toContain(DefaultMenuIcon);
  });

  it.each([
    ['systemLayout', 'SettingsIcon'],
    ['memberLayout', 'PeopleIcon'],
    ['transferLayout', 'SwapHorizIcon'],
    ['settingLayout', 'TuneIcon'],
    ['managerLayout', 'AppsIcon'],
    ['', 'AppsIcon'],
    ['toString', 'AppsIcon'],
  ])('draws %p as %s', (name, testId) => {
    const Icon = menuIconFor(name);
    const { getByTestId } = render(<Icon />);
    expect(getByTestId(testId)).toBeInTheDocument();
  });
});
