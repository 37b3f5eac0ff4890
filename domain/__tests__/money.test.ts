import { isCurrencyCode, knownDecimals } from '../currencies';
import { minorToDecimal, eur, exactMinor, normalizeAmountInput } from '../money';

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
    expect(exactMinor('100', knownDecimals('EUR'))).toBe(10000n);
    expect(exactMinor('0.00120500', knownDecimals('BTC'))).toBe(120500n);
    expect(exactMinor('0.001234567', knownDecimals('ETH'))).toBe(1_234_567_000_000_000n); // wei
    expect(exactMinor('0.000000000000000001', knownDecimals('ETH'))).toBe(1n);
    expect(knownDecimals('XRP')).toBe(6);
    expect(isCurrencyCode('XRP')).toBe(true);
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('XYZ')).toBe(false);
  });

  it('gives the server one answer for a known currency, and refuses a code it does not know', () => {
    expect(knownDecimals('EUR')).toBe(2);
    expect(knownDecimals('ETH')).toBe(18);
    expect(() => knownDecimals('XYZ')).toThrow('Unknown currency XYZ');
  });

  it('throws rather than round or return zero', () => {
    expect(() => exactMinor('0.001', 2)).toThrow('"0.001" is not an amount with at most 2 decimals');
    expect(() => exactMinor('1e-5', 8)).toThrow();
    expect(() => exactMinor('', 8)).toThrow();
  });
});

describe('normalizeAmountInput: an amount as people type it in the six languages', () => {
  it.each([
    ['0,001', '0.001'],
    ['0.001', '0.001'],
    ['1 234,5', '1234.5'],
    ['1\u202f234,50', '1234.50'],
    ['1.234,56', '1234.56'],
    ['1,234.56', '1234.56'],
    ["1'000", '1000'],
    [',5', '0.5'],
    [' 12.50 ', '12.50'],
  ])('%j -> %j', (typed, wire) => expect(normalizeAmountInput(typed)).toBe(wire));

  it.each(['1,2,3', '1.2.3,4', '1,2.3.4', 'abc'])('leaves %j for the amount check to refuse', (typed) => {
    expect(/^\d+(\.\d+)?$/.test(normalizeAmountInput(typed))).toBe(false);
  });
});
