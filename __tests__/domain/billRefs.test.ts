/**
 * Every bill reference kind the server writes has a Chinese label in the 关联 column (no raw English
 * codes on screen); the kinds are read from the server's source, so a new module's kind cannot be missed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BillRefLabels, billRefText } from '../../domain/bills';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('bill reference labels', () => {
  it('labels every ref kind written by the server', () => {
    const kinds = new Set<string>();
    for (const f of sourceFiles(path.join(__dirname, '../../server/modules'))) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/ref: \{ kind: '([a-z]+)'/g)) kinds.add(m[1]);
    }
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
