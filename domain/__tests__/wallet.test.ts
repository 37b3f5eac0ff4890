import fc from 'fast-check';
import { CURRENCIES } from '../currencies';
import { NETWORK_FEES_MINOR } from '../fees';
import { eurValueMinor } from '../quotes';
import { externalNetworkFeeMinor, maxSendableMinor } from '../wallet';

describe('the largest send ("Max")', () => {
  it('is the balance less the network fee', () => {
    expect(maxSendableMinor(1_000_000n, NETWORK_FEES_MINOR.BTC!)).toBe(998_000n);
    expect(maxSendableMinor(2_000n, 2_000n)).toBe(0n);
    expect(maxSendableMinor(1_999n, 2_000n)).toBe(0n);
  });

  it('never goes below zero, and with its fee it always fits the balance, one unit more never does', () => {
    const fullySupported = CURRENCIES.filter((c) => c.support === 'full').map((c) => c.code);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.constantFrom(...fullySupported), (balance, currency) => {
        const fee = externalNetworkFeeMinor(currency);
        const max = maxSendableMinor(balance, fee);
        expect(max >= 0n).toBe(true);
        if (max > 0n) {
          expect(max + fee <= balance).toBe(true);
          expect(max + 1n + fee > balance).toBe(true);
        } else {
          expect(balance <= fee).toBe(true);
        }
      }),
    );
  });

  it('knows every fully supported currency’s network fee', () => {
    for (const c of CURRENCIES.filter((currency) => currency.support === 'full'))
      expect(externalNetworkFeeMinor(c.code)).toBe(NETWORK_FEES_MINOR[c.code]);
  });
});

describe('the EUR value shown before a send', () => {
  it('is the amount at the rate, to the cent, half up as the API values the send', () => {
    expect(eurValueMinor(100_000n, 8, '80000')).toBe(80_00n); // 0.001 BTC at 80,000 EUR
    expect(eurValueMinor(1n, 2, '0.5')).toBe(1n); // 0.005 EUR: half up
    expect(eurValueMinor(3n, 2, '0.5')).toBe(2n); // 0.015 EUR
    expect(eurValueMinor(5_000_000n, 6, '1e-8')).toBe(0n);
  });
});
