/**
 * Every bill reference kind the server writes has a Chinese label in the 关联 column (no raw English
 * codes on screen); the kinds are read from the server's source, so a new module's kind cannot be missed.
 */
import { BillRefLabels, billRefText } from '../../domain/bills';
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
});
