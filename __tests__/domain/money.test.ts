import fc from 'fast-check';
import { formatMinor, parseMinor } from '../../domain/money';

/** The reference: BigInt arithmetic, as formatMinor does for bigint and number input. */
function reference(v: bigint, decimals: number): string {
  const negative = v < 0n;
  const a = negative ? -v : v;
  const base = 10n ** BigInt(decimals);
  const frac = decimals > 0 ? (a % base).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${a / base}${frac ? `.${frac}` : ''}`;
}

describe('formatMinor', () => {
  it('formats text from the database exactly as the BigInt arithmetic does', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 8 }), (v, d) => {
        expect(formatMinor(v.toString(), d)).toBe(reference(v, d));
        expect(formatMinor(v, d)).toBe(reference(v, d));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles zeros, leading zeros and signs', () => {
    expect(formatMinor('0', 6)).toBe('0');
    expect(formatMinor('-0', 6)).toBe('0');
    expect(formatMinor('000120', 2)).toBe('1.2');
    expect(formatMinor('-1', 6)).toBe('-0.000001');
    expect(formatMinor('1000000', 6)).toBe('1');
    expect(formatMinor('-1234500', 4)).toBe('-123.45');
    expect(formatMinor('7', 0)).toBe('7');
    expect(formatMinor(12n, 2)).toBe('0.12');
  });

  it('round-trips with parseMinor', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 0, max: 6 }), (v, d) => {
        const r = parseMinor(formatMinor(v.toString(), d), d);
        expect(r).toEqual({ ok: true, value: v });
      }),
    );
  });
});
