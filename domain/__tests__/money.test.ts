import { decimalsOf } from '../currencies';
import { minorToDecimal, eur, exactMinor } from '../money';

describe('minor units to decimal strings', () => {
  it('places the decimal point exactly', () => {
    expect(minorToDecimal(12345n, 2)).toBe('123.45');
    expect(minorToDecimal(5n, 2)).toBe('0.05');
    expect(minorToDecimal(1n, 9)).toBe('0.000000001');
    expect(minorToDecimal(-5n, 2)).toBe('-0.05');
    expect(minorToDecimal(42n, 0)).toBe('42');
  });

  it('handles amounts beyond the float range without losing digits', () => {
    expect(minorToDecimal(123456789012345678901234567890n, 8)).toBe('1234567890123456789012.34567890');
    expect(eur(3_000_000n)).toBe('30000.00');
  });
});

describe('decimal strings to minor units, exactly or not at all', () => {
  it('converts what Muntly wrote, in the minor unit of its currency', () => {
    expect(exactMinor('100', decimalsOf('EUR')!)).toBe(10000n);
    expect(exactMinor('0.00120500', decimalsOf('BTC')!)).toBe(120500n);
    expect(exactMinor('0.001234567', decimalsOf('ETH')!)).toBe(1234567n);
    expect(decimalsOf('XRP')).toBe(6);
    expect(decimalsOf('XYZ')).toBeUndefined();
  });

  it('throws rather than round or return zero', () => {
    expect(() => exactMinor('0.001', 2)).toThrow('"0.001" is not an amount with at most 2 decimals');
    expect(() => exactMinor('1e-5', 8)).toThrow();
    expect(() => exactMinor('', 8)).toThrow();
  });
});
