import { ACCESS_ACTIONS, MONEY_ACTIONS, MONEY_PAGES } from '../../domain/grants';
import { permissionByCode } from '../../domain/permissions';

describe('marked grants', () => {
  it('names only actions of the permission tree', () => {
    for (const code of [...MONEY_ACTIONS, ...ACCESS_ACTIONS])
      expect([code, permissionByCode.get(code)?.kind]).toEqual([code, 'action']);
    expect(MONEY_ACTIONS.has('member:adjust')).toBe(true);
    for (const code of MONEY_PAGES) expect([code, permissionByCode.get(code)?.kind]).toEqual([code, 'page']);
  });
});
