import { inverse, rateText } from '../format';

describe('a buy’s rate, shown the way people read it', () => {
  it('inverts a EUR-first rate to euros per coin, to the cent, half up', () => {
    expect(inverse('0.0000125', 2)).toBe('80000.00');
    expect(inverse('3', 2)).toBe('0.33');
    expect(inverse('0.6', 2)).toBe('1.67');
    expect(inverse('0.000008', 2)).toBe('125000.00');
    // Exponent notation, as a decimal string may come.
    expect(inverse('1.25e-5', 2)).toBe('80000.00');
    expect(inverse('8E+4', 2)).toBe('0.00');
    expect(inverse('8E+1', 4)).toBe('0.0125');
  });

  it('has no inverse for zero or what is not a decimal', () => {
    expect(inverse('0', 2)).toBeNull();
    expect(inverse('0.000', 2)).toBeNull();
    expect(inverse('-1', 2)).toBeNull();
    expect(inverse('abc', 2)).toBeNull();
  });

  it('writes "1 BTC ≈ €80,000.00" for a buy and a sell’s price in euros alike', () => {
    expect(rateText('EUR', 'BTC', '0.0000125', 'en')).toMatch(/^1 BTC ≈ €80,000\.00$/);
    expect(rateText('EUR', 'BTC', '0.0000125', 'de')).toMatch(/^1 BTC ≈ 80\.000,00\s€$/);
    // A sell's price in euros is written as every euro amount is, never "80,000 EUR".
    expect(rateText('BTC', 'EUR', '80000', 'en')).toBe('1 BTC ≈ €80,000.00');
    expect(rateText('BTC', 'ETH', '25.5', 'en')).toBe('1 BTC ≈ 25.5 ETH');
  });
});
