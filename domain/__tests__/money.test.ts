import { minorToDecimal, eur } from '../money';

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
