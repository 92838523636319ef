import fc from 'fast-check';
import {
  endDayOf,
  percentToRate,
  pledgeTerms,
  ratePercent,
  rateText,
  releasedThrough,
  releaseOf,
  seedTerms,
} from '../../domain/economy';

const sumReleases = (terms: { daily: bigint; total: bigint }, start: number, days: number) => {
  let sum = 0n;
  for (let d = start - 2; d <= start + days + 2; d++) sum += releaseOf(terms, d, start, days);
  return sum;
};

describe('pledgeTerms and releaseOf', () => {
  it('rounds down to the minor unit and pays the remainder on the end day', () => {
    // 1234.5677 LZ at 1.23 % for 7 days: daily 15.1851827 → 15.1851, total 106.2962789 → 106.2962
    const terms = pledgeTerms(12_345_677n, 12_300n, 7);
    expect(terms).toEqual({ daily: 151_851n, total: 1_062_962n });
    expect(releaseOf(terms, 100, 100, 7)).toBe(0n); // the start day earns nothing
    expect(releaseOf(terms, 101, 100, 7)).toBe(151_851n);
    expect(releaseOf(terms, 106, 100, 7)).toBe(151_851n);
    expect(releaseOf(terms, 107, 100, 7)).toBe(1_062_962n - 151_851n * 6n);
    expect(releaseOf(terms, 108, 100, 7)).toBe(0n);
    expect(endDayOf(100, 7)).toBe(107);
    expect(sumReleases(terms, 100, 7)).toBe(terms.total);
  });

  it('sums the releases to the terms exactly for odd amounts, rates and days', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.bigInt({ min: 1n, max: 50_000n }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 30_000 }),
        (amount, rate, days, start) => {
          const terms = pledgeTerms(amount, rate, days);
          expect(terms.daily).toBe((amount * rate) / 1_000_000n);
          expect(terms.total).toBe((amount * rate * BigInt(days)) / 1_000_000n);
          const last = releaseOf(terms, start + days, start, days);
          expect(last >= terms.daily).toBe(true);
          expect(sumReleases(terms, start, days)).toBe(terms.total);
          for (const k of [0, 1, Math.floor(days / 2), days - 1, days, days + 3]) {
            let paid = 0n;
            for (let d = start + 1; d <= start + k; d++) paid += releaseOf(terms, d, start, days);
            expect(releasedThrough(terms, start + k, start, days)).toBe(paid);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('pays nothing for a yield below the minor unit, and refuses bad input', () => {
    expect(pledgeTerms(1n, 1n, 30)).toEqual({ daily: 0n, total: 0n });
    expect(() => pledgeTerms(0n, 1n, 1)).toThrow(RangeError);
    expect(() => pledgeTerms(1n, 1n, 0)).toThrow(RangeError);
    expect(() => pledgeTerms(1n, 1n, 1.5)).toThrow(RangeError);
  });
});

describe('seedTerms', () => {
  it('releases floor(total / days) and the rest on the end day, summing to the total', () => {
    expect(seedTerms(1000n, 3)).toEqual({ daily: 333n, total: 1000n });
    expect(releaseOf(seedTerms(1000n, 3), 13, 10, 3)).toBe(334n);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.integer({ min: 1, max: 3650 }), (total, days) => {
        const terms = seedTerms(total, days);
        expect(terms.daily).toBe(total / BigInt(days));
        expect(releaseOf(terms, 20 + days, 20, days) >= terms.daily).toBe(true);
        expect(releasedThrough(terms, 20 + days, 20, days)).toBe(total);
      }),
      { numRuns: 300 },
    );
    expect(sumReleases(seedTerms(7n, 10), 5, 10)).toBe(7n);
  });
});

describe('rates as text and percent', () => {
  it('converts exactly both ways', () => {
    expect(rateText(12_300n)).toBe('0.0123');
    expect(rateText(50_000n)).toBe('0.05');
    expect(rateText(1n)).toBe('0.000001');
    expect(rateText('1000000')).toBe('1');
    expect(ratePercent('0.0123')).toBe('1.23%');
    expect(ratePercent('0.05')).toBe('5%');
    expect(ratePercent('0.000001')).toBe('0.0001%');
    expect(ratePercent('1')).toBe('100%');
    expect(percentToRate('1.23')).toBe('0.0123');
    expect(percentToRate('5')).toBe('0.05');
    expect(percentToRate('0.0001')).toBe('0.000001');
    expect(percentToRate('100')).toBe('1');
    expect(percentToRate('0')).toBe('0');
    expect(percentToRate('abc')).toBeNull();
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 8n }), (v) => {
        const rate = rateText(v);
        expect(percentToRate(ratePercent(rate).slice(0, -1))).toBe(rate);
      }),
    );
  });
});
