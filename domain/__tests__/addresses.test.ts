/**
 * @jest-environment node
 */
import { normalizeAddress, eip55 } from '../addresses';
import { decimalToMinor } from '../money';

describe('addresses', () => {
  it.each([
    ['BTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    ['LTC', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh'],
    ['DOGE', 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC', 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC'],
    ['BCH', 'qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6', 'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6'],
    ['ETH', '0x9858effd232b4033e47d90003d41ec34ecaeda94', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
    ['XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3:0'],
    ['XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3:12345', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3:12345'],
  ])('%s %s is valid and stored as %s', (currency, input, stored) => {
    expect(normalizeAddress(currency, input)).toBe(stored);
  });

  it.each([
    ['BTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv'], // checksum
    ['BTC', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh'], // another chain
    ['LTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['DOGE', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    ['BCH', 'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q7'],
    ['ETH', '0x9858EfFD232B4033E47d90003D41EC34EcaEda95'], // mixed case with a wrong checksum
    ['ETH', '0x9858effd232b4033e47d90003d41ec34ecaeda9'], // too short
    ['XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v4'],
    ['XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3:99999999999'],
    ['USDT', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
    ['BTC', ''],
  ])('%s %s is "Invalid address."', (currency, input) => {
    expect(normalizeAddress(currency, input)).toBeNull();
  });

  it('writes the EIP-55 checksum', () => {
    expect(eip55('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  });
});

describe('decimal amounts to minor units', () => {
  it('accepts plain decimals within the currency decimals', () => {
    expect(decimalToMinor('1.5', 8)).toBe(150_000_000n);
    expect(decimalToMinor('0.000000001', 9)).toBe(1n);
    expect(decimalToMinor('42', 2)).toBe(4200n);
  });
  it.each(['', '-1', '1e5', '1.', '.5', '1.123456789', ' 1', '1,5', 'NaN'])('refuses %j at 8 decimals', (value) => {
    expect(decimalToMinor(value, 8)).toBeNull();
  });
});
