/**
 * Every bill reference kind the server writes has a Chinese label in the 关联 column (no raw English
 * codes on screen); the kinds are read from the server's source, so a new module's kind cannot be missed.
 */
import { BillRefLabels, billRefPath, billRefText } from '../../domain/bills';
import { pagePaths } from '../../domain/pagePaths';
import { serverModuleMatches } from './serverSources';

describe('bill reference labels', () => {
  it('labels every ref kind written by the server', () => {
    const kinds = new Set(serverModuleMatches(/ref: \{ kind: '([a-z]+)'/g));
    expect(kinds.size).toBeGreaterThanOrEqual(6);
    expect([...kinds].filter((k) => !BillRefLabels[k])).toEqual([]);
  });

  it('shows a reference in Chinese, never the raw kind', () => {
    expect(billRefText('pledge', 12)).toBe('质押 #12');
    expect(billRefText('member', 3)).toBe('后台调整 #3');
    expect(billRefText('', null)).toBe('-');
    expect(billRefText('somethingNew', 5)).toBe('关联 #5');
  });

  it('links every ref kind the server writes to the page that shows its record', () => {
    const bill = { refId: 7, asset: 'USDT', type: 2, frozenChange: '100', memberId: 41, uid: '10000001' };
    const pages = new Set<string>(Object.values(pagePaths));
    for (const kind of serverModuleMatches(/ref: \{ kind: '([a-z]+)'/g)) {
      const path = billRefPath({ ...bill, refKind: kind });
      expect(path).not.toBeNull();
      expect(pages.has(path!.split('?')[0])).toBe(true);
    }
    expect(billRefPath({ ...bill, refKind: 'withdrawal' })).toBe('withdrawLayout/withdrawListLayout?id=7');
    expect(billRefPath({ ...bill, refKind: 'withdrawal', asset: 'LZ' })).toBe('withdrawLayout/extractListLayout?id=7');
    expect(billRefPath({ ...bill, refKind: 'deposit' })).toBe('depositLayout/depositListLayout?id=7');
    expect(billRefPath({ ...bill, refKind: 'pledge' })).toBe('pledgeLayout/pledgeListLayout?memberId=41');
    // A match: the seller's LZ moves through frozen, the buyer's does not.
    expect(billRefPath({ ...bill, refKind: 'match', frozenChange: '-5' })).toBe('matchLayout?seller=10000001');
    expect(billRefPath({ ...bill, refKind: 'match', frozenChange: '0' })).toBe('matchLayout?buyer=10000001');
    expect(billRefPath({ ...bill, refKind: '' })).toBeNull();
  });
});
