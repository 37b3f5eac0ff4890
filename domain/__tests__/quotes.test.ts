import fc from 'fast-check';
import Big from 'big.js';
import { quote, type Quote } from '../quotes';

const rates = { BTC: '80000', ETH: '3000', USDT: '0.92' };

describe('quotes', () => {
  it('buy: 1.50 % fee with a 2.00 EUR minimum, network fee extra', () => {
    expect(quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '1000', rates })).toEqual({
      rate: '0.00001250000000',
      fee: '15.00',
      feeCurrency: 'EUR',
      networkFee: '0.00002000',
      networkFeeCurrency: 'BTC',
      amountConverted: '0.01229250',
      amountEur: '1000.00',
    });
    expect((quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50', rates }) as Quote).fee).toBe('2.00');
  });

  it('has no network fee when the crypto goes to the Muntly wallet', () => {
    expect((quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '1000', rates, toMuntlyWallet: true }) as Quote).amountConverted).toBe('0.01231250');
  });

  it('sell: 1.50 %, paid in EUR', () => {
    expect(quote({ type: 'sell', currencyFrom: 'ETH', currencyTo: 'EUR', amount: '1', rates })).toMatchObject({ fee: '45.00', amountConverted: '2955.00', networkFee: '0.00' });
  });

  it('swap: 0.50 %', () => {
    expect(quote({ type: 'swap', currencyFrom: 'BTC', currencyTo: 'ETH', amount: '0.1', rates })).toMatchObject({ fee: '40.00', amountConverted: '2.652913333', networkFee: '0.000420000' });
  });

  it('rejects an order whose network fee exceeds it', () => {
    expect(quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '3.00', rates })).toBe('network_fee_exceeds_amount');
    expect(quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '3.00', rates, toMuntlyWallet: true })).not.toBe('network_fee_exceeds_amount');
  });

  it('refuses wrong pairs and amounts', () => {
    expect(quote({ type: 'buy', currencyFrom: 'BTC', currencyTo: 'EUR', amount: '1', rates })).toBe('invalid_pair');
    expect(quote({ type: 'swap', currencyFrom: 'BTC', currencyTo: 'BTC', amount: '1', rates })).toBe('invalid_pair');
    expect(quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '10.001', rates })).toBe('invalid_amount');
    expect(quote({ type: 'sell', currencyFrom: 'BTC', currencyTo: 'EUR', amount: '-1', rates })).toBe('invalid_amount');
    expect(quote({ type: 'swap', currencyFrom: 'BTC', currencyTo: 'SOL', amount: '1', rates })).toBe('rate_unavailable');
  });

  it('never gives more than the money in, and never a fee below the rule (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_000_000 }), fc.boolean(), (cents, own) => {
        const amount = new Big(cents).div(100).toFixed(2);
        const result = quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'ETH', amount, rates, toMuntlyWallet: own });
        if (typeof result === 'string') return result === 'network_fee_exceeds_amount';
        const delivered = new Big(result.amountConverted).times(3000);
        return delivered.lte(new Big(amount)) && new Big(result.fee).gte(2) && new Big(result.fee).gte(new Big(amount).times(0.015).round(2, Big.roundDown));
      }),
    );
  });
});
