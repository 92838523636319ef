import { orderIdOf, orderNo, orderNoFormatter } from '../../domain/mallRules';

describe('order numbers', () => {
  it('are the Shanghai date and the id in ten digits, the day turning at 00:00 Shanghai (16:00 UTC)', () => {
    const before = Date.UTC(2026, 10, 27, 15, 59, 59, 999); // 2026-11-27 23:59:59.999 in Shanghai
    expect(orderNo(12345, before)).toBe('202611270000012345');
    expect(orderNo(12345, before + 1)).toBe('202611280000012345');
    expect(orderIdOf(orderNo(12345, before))).toBe(12345);
    expect(orderIdOf('2026112700000123')).toBeNull();
  });

  it("the export's formatter writes exactly orderNo, day after day, in any order and past its day cache", () => {
    const f = orderNoFormatter();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const start = Date.UTC(2010, 0, 1);
    for (let i = 0; i < 20_000; i++) {
      // about 15 years of days (more than the 4,096 it keeps), times near midnight included
      const t = start + (next() % 5500) * 86_400_000 + ((next() % 3) - 1) * (next() % 60_000) + 16 * 3600_000;
      const id = next() % 10 ** (1 + (i % 11));
      expect(f(id, t)).toBe(orderNo(id, t));
    }
  });
});
