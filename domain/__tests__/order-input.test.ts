import { amountProblem, pairProblem } from '../order-input';
import { quote } from '../quotes';

const rates = { BTC: '80000', ETH: '3000' };

describe('order input rules, one for the form and the API', () => {
  it('names what is wrong with an amount', () => {
    expect(amountProblem('', 2)).toBe('required');
    expect(amountProblem('0.00', 2)).toBe('invalid_amount');
    expect(amountProblem('1e5', 2)).toBe('invalid_amount');
    expect(amountProblem('1234567890123456', 2)).toBe('invalid_amount');
    expect(amountProblem('1.234', 2)).toBe('too_many_decimals');
    expect(amountProblem('0.00000001', 8)).toBeNull();
  });

  it('names what is wrong with a pair of currencies', () => {
    expect(pairProblem('swap', 'BTC', 'BTC')).toBe('same_currency');
    expect(pairProblem('buy', 'BTC', 'EUR')).toBe('invalid_pair');
    expect(pairProblem('sell', 'EUR', 'BTC')).toBe('invalid_pair');
    expect(pairProblem('swap', 'EUR', 'BTC')).toBe('invalid_pair');
    expect(pairProblem('sell', 'BTC', 'EUR')).toBeNull();
  });

  it('is what the API’s quote refuses: an order the form lets through is quoted, one it stops is not', () => {
    for (const amount of ['', '0', '1.234', 'abc', '1234567890123456']) {
      expect(amountProblem(amount, 2)).not.toBeNull();
      expect(quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount, rates })).toBe('invalid_amount');
    }
    expect(quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50.25', rates })).toMatchObject({
      amountEur: { minor: 5025n, currency: 'EUR' },
    });
    expect(quote({ type: 'swap', currencyFrom: 'BTC', currencyTo: 'BTC', amount: '1', rates })).toBe('invalid_pair');
  });
});
