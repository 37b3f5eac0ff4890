/**
 * @jest-environment node
 */
import Big from 'big.js';
import { eurValueMinor } from '#domain/quotes';
import { simulatedRate, simulatedRates } from '../src/modules/rates/service';
import { testApp, fixedRates, type TestApp } from './helpers';

describe('rates', () => {
  it('simulates each price near its reference, the same for everyone at the same minute', async () => {
    const at = new Date('2026-11-22T10:00:30Z');
    const a = await simulatedRates(() => at).current();
    const b = await simulatedRates(() => new Date('2026-11-22T10:00:59Z')).current();
    expect(a.rates).toEqual(b.rates);
    expect(Object.keys(a.rates)).toHaveLength(24);
    const ratio = new Big(a.rates.BTC!).div(80000).toNumber();
    expect(ratio).toBeGreaterThan(0.94);
    expect(ratio).toBeLessThan(1.06);
    expect(simulatedRate('BTC', '80000', new Date('2026-11-22T11:00:00Z'))).not.toBe(a.rates.BTC);
  });

  it.each([1, 2, 3])(
    'moves like a market with seed %i: at most 0.2 % a minute, back towards the reference, stablecoins within 0.1 % of their peg',
    (seed) => {
      const start = Date.parse('2026-11-22T00:00:00Z');
      const series = (code: string, reference: string) =>
        Array.from({ length: 24 * 60 }, (_, minute) =>
          new Big(simulatedRate(code, reference, new Date(start + minute * 60_000), seed)).div(reference).toNumber(),
        );
      const btc = series('BTC', '80000');
      const steps = btc.slice(1).map((ratio, i) => Math.abs(ratio / btc[i]! - 1));
      expect(Math.max(...steps)).toBeLessThanOrEqual(0.002 * 1.01);
      // A market moves: not frozen, and over a day it wanders, yet stays near its reference.
      expect(steps.filter((step) => step > 0).length).toBeGreaterThan(1000);
      expect(Math.max(...btc) - Math.min(...btc)).toBeGreaterThan(0.002);
      for (const ratio of btc) expect(Math.abs(ratio - 1)).toBeLessThan(0.1);
      for (const code of ['USDT', 'USDC'])
        for (const ratio of series(code, '0.92')) expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(0.001);
      // Another seed is another walk.
      expect(simulatedRate('BTC', '80000', new Date(start), seed)).not.toBe(
        simulatedRate('BTC', '80000', new Date(start), seed + 10),
      );
    },
  );

  it('marks the simulated rates as sample data', async () => {
    expect((await simulatedRates().current()).sample).toBe(true);
  });

  it('values amounts in EUR cents exactly, rounding half up as quotes and fees do', () => {
    expect(eurValueMinor(1_500_000n, 8, '80000')).toBe(120_000n);
    expect(eurValueMinor(1n, 2, '0.5')).toBe(1n); // 0.005 EUR -> 0.01 (half up)
    expect(eurValueMinor(3n, 2, '0.5')).toBe(2n); // 0.015 EUR -> 0.02
    expect(eurValueMinor(123_456_789_012_345_678n, 9, '3000.123456')).toBe(37_038_560_851_838n);
  });
});

describe('currencies and rates API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite');
  });
  afterAll(() => t.close());

  it('lists the 24 currencies with decimals, support and own-wallet-only', async () => {
    const { currencies } = (await t.app.inject({ url: '/api/currencies' })).json();
    expect(currencies).toHaveLength(24);
    expect(currencies[0]).toEqual({ code: 'BTC', name: 'Bitcoin', decimals: 8, support: 'full', ownWalletOnly: false });
    expect(currencies.find((c: { code: string }) => c.code === 'USDT')).toEqual({
      code: 'USDT',
      name: 'Tether',
      decimals: 6,
      support: 'partial',
      ownWalletOnly: true,
    });
    const byDecimals = (d: number) =>
      currencies
        .filter((c: { decimals: number }) => c.decimals === d)
        .map((c: { code: string }) => c.code)
        .sort();
    expect(byDecimals(8)).toEqual(['BCH', 'BTC', 'DOGE', 'LTC', 'WBTC']);
    expect(byDecimals(6)).toEqual(['ADA', 'ALGO', 'ATOM', 'USDC', 'USDT', 'XLM', 'XRP']);
  });

  it('gives current rates as decimal strings and a history for charts', async () => {
    const now = (await t.app.inject({ url: '/api/rates' })).json();
    expect(Object.keys(now.rates)).toHaveLength(24);
    expect(now.rates.BTC).toMatch(/^\d+(\.\d+)?$/);
    const history = (await t.app.inject({ url: '/api/rates/history?currency=eth&days=7' })).json();
    expect(history.currency).toBe('ETH');
    expect(history.points.length).toBeGreaterThan(150);
    expect(history.points[0]).toEqual({ time: expect.any(String), rate: expect.stringMatching(/^\d+(\.\d+)?$/) });
    // The chart ends where the rates page is: its last point is the current rate.
    const current = (await t.app.inject({ url: '/api/rates' })).json();
    expect(history.points.at(-1).rate).toBe(current.rates.ETH);
    expect(Date.parse(history.points.at(-1).time)).toBeGreaterThan(Date.parse(history.points.at(-2).time));
    expect((await t.app.inject({ url: '/api/rates/history?currency=NOPE' })).json().error.field).toBe('currency');
    expect((await t.app.inject({ url: '/api/rates/history?currency=BTC&days=1000' })).statusCode).toBe(400);
  });
});

describe('quotes API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', {}, { rates: fixedRates() });
  });
  afterAll(() => t.close());
  const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/quotes', payload });

  it('estimates a buy, stating that the rate is the one at processing time', async () => {
    const res = await post({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'btc', amount: '1000' });
    expect(res.json()).toMatchObject({
      fee: '15.00',
      networkFee: '0.00002000',
      amountConverted: '0.01229250',
      rateType: 'floating',
      note: expect.stringContaining('processing time'),
    });
  });

  it('answers every problem with its code and field', async () => {
    expect(
      (await post({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '3' })).json().error,
    ).toMatchObject({ code: 'network_fee_exceeds_amount', field: 'amount' });
    expect(
      (await post({ type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '1.234' })).json().error,
    ).toMatchObject({ code: 'invalid_amount', field: 'amount' });
    expect((await post({ type: 'sell', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '1' })).json().error.field).toBe(
      'currencyTo',
    );
    expect((await post({ type: 'lend', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '1' })).json().error.field).toBe(
      'type',
    );
    expect((await post({ type: 'swap', currencyFrom: 'BTC', currencyTo: 'SOL', amount: '1' })).statusCode).toBe(503);
  });
});
