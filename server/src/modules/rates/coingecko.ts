import Big from 'big.js';
import { CURRENCIES } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import type { RatePoint, Rates, RatesAdapter } from './service';

/**
 * A real, public EUR rate feed: CoinGecko's API (`RATES_FEED=coingecko`). Prices are fetched at
 * most once a minute and shared by every request; when the feed fails, the last prices (at most
 * ten minutes old) are served, and after that the API answers try_again_soon rather than trade
 * on stale prices.
 */
export const COINGECKO_IDS: Record<string, string> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  XRP: 'ripple',
  USDT: 'tether',
  BCH: 'bitcoin-cash',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  BAT: 'basic-attention-token',
  ADA: 'cardano',
  SOL: 'solana',
  DOT: 'polkadot',
  USDC: 'usd-coin',
  UNI: 'uniswap',
  LINK: 'chainlink',
  ALGO: 'algorand',
  WBTC: 'wrapped-bitcoin',
  MATIC: 'matic-network',
  XLM: 'stellar',
  ATOM: 'cosmos',
  FIL: 'filecoin',
  AXS: 'axie-infinity',
  BNB: 'binancecoin',
  SHIB: 'shiba-inu',
  VET: 'vechain',
};

type Fetch = (
  url: string,
  init?: { signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** A JSON number from the feed as a plain decimal string (never used as a float in arithmetic). */
const decimal = (value: unknown): string | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? new Big(String(value)).toFixed() : null;

export function coingeckoRates(options: {
  baseUrl: string;
  fetch?: Fetch;
  now?: () => number;
  maxAgeMs?: number;
  staleMs?: number;
}): RatesAdapter {
  const get = options.fetch ?? (globalThis.fetch as unknown as Fetch);
  const now = options.now ?? Date.now;
  const maxAge = options.maxAgeMs ?? 60_000;
  const stale = options.staleMs ?? 600_000;
  const base = options.baseUrl.replace(/\/$/, '');
  let last: { fetchedAt: number; rates: Rates } | null = null;
  let pending: Promise<Rates> | null = null;

  async function request(path: string): Promise<unknown> {
    const response = await get(`${base}${path}`, {
      signal: AbortSignal.timeout(5000),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`rate feed answered ${response.status}`);
    return response.json();
  }

  async function refresh(): Promise<Rates> {
    const ids = Object.values(COINGECKO_IDS).join(',');
    const body = (await request(`/simple/price?ids=${ids}&vs_currencies=eur`)) as Record<string, { eur?: unknown }>;
    const rates: Record<string, string> = {};
    for (const { code } of CURRENCIES) {
      const value = decimal(body[COINGECKO_IDS[code]!]?.eur);
      if (value) rates[code] = value;
    }
    if (Object.keys(rates).length === 0) throw new Error('rate feed sent no prices');
    const fresh = { at: new Date(now()).toISOString(), rates };
    last = { fetchedAt: now(), rates: fresh };
    return fresh;
  }

  return {
    async current() {
      if (last && now() - last.fetchedAt < maxAge) return last.rates;
      pending ??= refresh().finally(() => (pending = null));
      try {
        return await pending;
      } catch {
        if (last && now() - last.fetchedAt < stale) return last.rates;
        throw new DomainError('try_again_soon');
      }
    },
    async history(code, from, to, stepMs): Promise<RatePoint[]> {
      const id = COINGECKO_IDS[code];
      if (!id) return [];
      const days = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 86_400_000));
      let body: { prices?: unknown };
      try {
        body = (await request(`/coins/${id}/market_chart?vs_currency=eur&days=${days}`)) as { prices?: unknown };
      } catch {
        throw new DomainError('try_again_soon');
      }
      const points: RatePoint[] = [];
      let nextAt = from.getTime();
      for (const entry of Array.isArray(body.prices) ? body.prices : []) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'number') continue;
        const rate = decimal(entry[1]);
        if (!rate || entry[0] < nextAt || entry[0] > to.getTime()) continue;
        points.push({ time: new Date(entry[0]).toISOString(), rate });
        nextAt = entry[0] + stepMs;
      }
      return points;
    },
  };
}
