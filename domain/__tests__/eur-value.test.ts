import Big from 'big.js';
import { eurValueMinor } from '../eur-value';

/** What domain/quotes.ts computed with big.js before (the same rule: to the cent, half up). */
const withBig = (amountMinor: bigint, decimals: number, rate: string) =>
  BigInt(
    new Big(amountMinor.toString())
      .div(new Big(10).pow(decimals))
      .times(rate)
      .round(2, Big.roundHalfUp)
      .times(100)
      .toFixed(0),
  );

describe('the EUR value of an amount, in cents', () => {
  it('is exact, half up, for every form of rate the API writes', () => {
    const cases: [bigint, number, string][] = [
      [100_000n, 8, '80000'],
      [1n, 2, '0.5'],
      [3n, 2, '0.5'],
      [5_000_000n, 6, '1e-8'],
      [123_456_789_012_345_678n, 9, '3000.123456'],
      [1n, 18, '3000'],
      [999_999_999_999_999_999n, 18, '2999.995'],
      [12_345n, 6, '.5'],
      [12_345n, 6, '2.'],
      [250_000n, 8, '1.5E+2'],
      [0n, 8, '80000'],
      [100n, 2, '0'],
      [-5n, 2, '0.5'],
      [5n, 2, '-0.3'],
    ];
    for (const [amount, decimals, rate] of cases)
      expect([rate, eurValueMinor(amount, decimals, rate)]).toEqual([rate, withBig(amount, decimals, rate)]);
  });

  it('refuses what is not a rate, as big.js did', () => {
    for (const rate of ['', 'abc', '1,5', '--1', '1e']) {
      expect(() => eurValueMinor(1n, 2, rate)).toThrow();
      expect(() => withBig(1n, 2, rate)).toThrow();
    }
  });
});
