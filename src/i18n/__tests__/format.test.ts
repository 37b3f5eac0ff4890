import { formatMinor, formatMoney, formatPercent, formatDate, numberFormat } from '../format';

describe('formatting for the page language', () => {
  it('formats euro amounts from decimal strings in each language', () => {
    expect(formatMoney('30000.00', 'EUR', 'en')).toBe('€30,000.00');
    expect(formatMoney('30000.00', 'EUR', 'de')).toMatch(/^30\.000,00\s€$/);
    expect(formatMoney('100.00', 'EUR', 'fr')).toMatch(/^100,00\s€$/);
    expect(formatMoney('2.00', 'EUR', 'nl')).toMatch(/^€\s2,00$/);
    expect(formatMoney('1000.00', 'EUR', 'uk')).toMatch(/^1\s000,00\s(€|EUR)$/);
  });

  it('keeps every digit of a crypto amount (no float rounding)', () => {
    expect(formatMoney('0.123456789', 'ETH', 'en')).toBe('0.123456789 ETH');
    expect(formatMoney('12345678.12345678', 'BTC', 'de')).toBe('12.345.678,12345678 BTC');
  });

  it('writes an amount in minor units with its currency (a quote’s) as formatMoney does, and knows no currency Muntly does not list', () => {
    expect(formatMinor({ minor: 1500n, currency: 'EUR' }, 'en')).toBe('€15.00');
    expect(formatMinor({ minor: 2000n, currency: 'BTC' }, 'de')).toBe(formatMoney('0.00002000', 'BTC', 'de'));
    expect(formatMinor({ minor: 1n, currency: 'ETH' }, 'en')).toBe('0.000000000000000001 ETH');
    expect(() => formatMoney('1', 'XYZ', 'en')).toThrow('Unknown currency XYZ');
  });

  it('formats fee percentages and dates', () => {
    expect(formatPercent(150, 'en')).toBe('1.50%');
    expect(formatPercent(50, 'de')).toMatch(/^0,50\s%$/);
    expect(formatDate(new Date(Date.UTC(2022, 5, 15)), 'fr')).toBe('15 juin 2022');
  });

  it('creates each formatter once per language and options, and never mixes languages up', () => {
    expect(numberFormat('de', { style: 'percent' })).toBe(numberFormat('de', { style: 'percent' }));
    expect(numberFormat('de', { style: 'percent' })).not.toBe(numberFormat('fr', { style: 'percent' }));
    expect(formatMoney('1.50', 'EUR', 'de')).toMatch(/^1,50\s€$/);
    expect(formatMoney('1.50', 'EUR', 'en')).toBe('€1.50');
    expect(formatMoney('1.5', 'BTC', 'en')).toBe('1.5 BTC');
  });
});
