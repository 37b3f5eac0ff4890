/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { CURRENCIES } from '#domain/currencies';
import { coingeckoRates, COINGECKO_IDS } from '../src/modules/rates/coingecko';
import type { DomainError } from '#domain/errors';

// Responses recorded from CoinGecko's public API (/simple/price and /coins/{id}/market_chart).
const recorded = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8')) as unknown;

function feed(responses: Record<string, () => { ok: boolean; status: number; body?: unknown }>) {
  const calls: string[] = [];
  const fetch = async (url: string) => {
    calls.push(url);
    const key = Object.keys(responses).find((k) => url.includes(k));
    if (!key) throw new Error(`unexpected ${url}`);
    const r = responses[key]!();
    return { ok: r.ok, status: r.status, json: async () => r.body };
  };
  return { fetch, calls };
}

describe('CoinGecko rate feed', () => {
  it('maps every listed currency to its EUR price as a plain decimal string', async () => {
    const { fetch, calls } = feed({
      '/simple/price': () => ({ ok: true, status: 200, body: recorded('coingecko-simple-price.json') }),
    });
    const rates = await coingeckoRates({ baseUrl: 'https://api.coingecko.com/api/v3', fetch }).current();
    expect(Object.keys(COINGECKO_IDS).sort()).toEqual(CURRENCIES.map((c) => c.code).sort());
    expect(Object.keys(rates.rates)).toHaveLength(24);
    expect(rates.rates).toMatchObject({
      BTC: '58212',
      ETH: '2301.55',
      XRP: '0.5101',
      SHIB: '0.00001535',
      VET: '0.02231',
    });
    expect(calls[0]).toContain('vs_currencies=eur');
  });

  it('asks at most once a minute, serves the last prices for a while when the feed fails, then says try again soon', async () => {
    let now = 1_000_000;
    let up = true;
    const { fetch, calls } = feed({
      '/simple/price': () =>
        up ? { ok: true, status: 200, body: recorded('coingecko-simple-price.json') } : { ok: false, status: 429 },
    });
    const adapter = coingeckoRates({ baseUrl: 'https://feed.test', fetch, now: () => now });
    await Promise.all([adapter.current(), adapter.current(), adapter.current()]);
    now += 30_000;
    await adapter.current();
    expect(calls).toHaveLength(1);
    up = false;
    now += 60_000;
    expect((await adapter.current()).rates.BTC).toBe('58212');
    now += 600_000;
    await expect(adapter.current()).rejects.toMatchObject({ code: 'try_again_soon' } satisfies Partial<DomainError>);
  });

  it('turns a market chart into rate points one step apart', async () => {
    const { fetch, calls } = feed({
      '/coins/bitcoin/market_chart': () => ({
        ok: true,
        status: 200,
        body: recorded('coingecko-market-chart-bitcoin.json'),
      }),
    });
    const points = await coingeckoRates({ baseUrl: 'https://feed.test', fetch }).history!(
      'BTC',
      new Date(1727740800000),
      new Date(1727762400000),
      7_200_000,
    );
    expect(calls[0]).toBe('https://feed.test/coins/bitcoin/market_chart?vs_currency=eur&days=1');
    expect(points).toEqual([
      { time: '2024-10-01T00:00:00.000Z', rate: '57012.33' },
      { time: '2024-10-01T02:00:00.000Z', rate: '57301.07' },
      { time: '2024-10-01T04:00:00.000Z', rate: '57455.92' },
      { time: '2024-10-01T06:00:00.000Z', rate: '57611.5' },
    ]);
  });

  it('ignores garbage in a response instead of trading on it', async () => {
    const { fetch } = feed({
      '/simple/price': () => ({
        ok: true,
        status: 200,
        body: { bitcoin: { eur: -1 }, ethereum: { eur: 'NaN' }, ripple: { eur: 0.5 } },
      }),
    });
    expect((await coingeckoRates({ baseUrl: 'https://feed.test', fetch }).current()).rates).toEqual({ XRP: '0.5' });
  });
});
