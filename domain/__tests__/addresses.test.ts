/**
 * @jest-environment node
 */
import bchaddr from 'bchaddrjs';
import { bech32 } from 'bech32';
import cashaddr from 'cashaddrjs';
import fc from 'fast-check';
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

  it.each([
    ['BTC', 'BC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['LTC', 'LTC1QJMXNZ78NMC8NQ77WUXH25N2ES7RZM5C2RKK4WH', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh'],
    [
      'BCH',
      'BITCOINCASH:QQYX49MU0KKN9FTFJ6HJE6G2WFER34YFNQ5TAHQ3Q6',
      'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6',
    ],
    ['BCH', 'QQYX49MU0KKN9FTFJ6HJE6G2WFER34YFNQ5TAHQ3Q6', 'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6'],
    // The same key in legacy form (the cashaddr specification's own example).
    ['BCH', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
    ['ETH', '0X9858EFFD232B4033E47D90003D41EC34ECAEDA94', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
  ])('%s %s is the same address as %s', (currency, input, stored) => {
    expect(normalizeAddress(currency, input)).toBe(stored);
  });

  it.each([
    ['BTC', 'bc1QCR8te4kr609gcawutmrza0j4xv80jy8z306fyu'], // BIP-173: mixed case is invalid
    ['LTC', 'ltc1QJMXnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh'],
    ['BCH', 'bitcoincash:QQYX49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6'], // cashaddr: mixed case is invalid
    ['BCH', 'BITCOINCASH:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6'],
    ['BCH', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'], // segwit does not exist on BCH
  ])('%s %s breaks its standard and is "Invalid address."', (currency, input) => {
    expect(normalizeAddress(currency, input)).toBeNull();
  });

  /** One letter of the string in the other case: a mixed-case spelling. */
  const flipOne = (value: string, at: number) => {
    const letters = [...value].map((c, i) => [c, i] as const).filter(([c]) => /[a-z]/i.test(c));
    const [c, i] = letters[at % letters.length]!;
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    return value.slice(0, i) + flipped + value.slice(i + 1);
  };
  const hash20 = fc.uint8Array({ minLength: 20, maxLength: 20 });

  it.each([
    ['BTC', 'bc'],
    ['LTC', 'ltc'],
  ])(
    '%s: every bech32 address written by the independent bech32 library is one address in either case, and refused in mixed case',
    (currency, prefix) => {
      fc.assert(
        fc.property(hash20, fc.nat(), (hash, at) => {
          const written = bech32.encode(prefix, [0, ...bech32.toWords(hash)]);
          expect(normalizeAddress(currency, written)).toBe(written);
          expect(normalizeAddress(currency, written.toUpperCase())).toBe(written);
          // Flip a letter of the data part only: the prefix and separator stay.
          const body = written.slice(prefix.length + 1);
          expect(normalizeAddress(currency, `${prefix}1${flipOne(body, at)}`)).toBeNull();
        }),
      );
    },
  );

  it('BCH: a key in cashaddr with or without prefix, in either case, or in legacy form (translated by bchaddrjs) is one address', () => {
    fc.assert(
      fc.property(hash20, fc.constantFrom('P2PKH', 'P2SH'), fc.nat(), (hash, type, at) => {
        const cash = cashaddr.encode('bitcoincash', type, hash);
        const legacy = bchaddr.toLegacyAddress(cash);
        const payload = cash.slice('bitcoincash:'.length);
        for (const spelling of [cash, payload, cash.toUpperCase(), payload.toUpperCase(), legacy])
          expect(normalizeAddress('BCH', spelling)).toBe(cash);
        expect(bchaddr.toCashAddress(legacy)).toBe(cash);
        expect(normalizeAddress('BCH', flipOne(payload, at))).toBeNull();
      }),
    );
  });

  it('ETH: lower case, upper case and the checksum are one address; a mixed case that is not the checksum is refused', () => {
    fc.assert(
      fc.property(hash20, fc.nat(), (hash, at) => {
        const hex = Buffer.from(hash).toString('hex');
        const canonical = eip55(hex);
        for (const spelling of [`0x${hex}`, `0x${hex.toUpperCase()}`, `0X${hex.toUpperCase()}`, canonical])
          expect(normalizeAddress('ETH', spelling)).toBe(canonical);
        const misspelt = /[a-f]/i.test(hex) ? flipOne(canonical.slice(2), at) : null;
        // (With a single letter, flipping it can leave the whole address in one case: valid, no checksum.)
        if (misspelt && misspelt !== misspelt.toLowerCase() && misspelt !== misspelt.toUpperCase())
          expect(normalizeAddress('ETH', `0x${misspelt}`)).toBeNull();
      }),
    );
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
