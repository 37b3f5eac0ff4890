/**
 * @jest-environment node
 */
import Big from 'big.js';
import { eurValueMinor, simulatedRate, simulatedRates } from '../src/modules/rates/service';

describe('rates', () => {
  it('simulates each price near its reference, the same for everyone at the same minute', async () => {
    const at = new Date('2026-11-22T10:00:30Z');
    const a = await simulatedRates(() => at).current();
    const b = await simulatedRates(() => new Date('2026-11-22T10:00:59Z')).current();
    expect(a.rates).toEqual(b.rates);
    expect(Object.keys(a.rates)).toHaveLength(24);
    const ratio = new Big(a.rates.BTC!).div(80000).toNumber();
    expect(ratio).toBeGreaterThan(0.94);
    expect(ratio).toBeLessThan(1.06);
    expect(simulatedRate('BTC', '80000', new Date('2026-11-22T11:00:00Z'))).not.toBe(a.rates.BTC);
  });

  it('values amounts in EUR cents exactly, rounding half to even', () => {
    expect(eurValueMinor(1_500_000n, 8, '80000')).toBe(120_000n);
    expect(eurValueMinor(1n, 2, '0.5')).toBe(0n); // 0.005 EUR -> 0.00 (half to even)
    expect(eurValueMinor(3n, 2, '0.5')).toBe(2n); // 0.015 EUR -> 0.02
    expect(eurValueMinor(123_456_789_012_345_678n, 9, '3000.123456')).toBe(37_038_560_851_838n);
  });
});
