import Big from 'big.js';
import { CURRENCIES } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import type { Rates, RateHistory } from '#domain/contracts/rates';
import type { QuoteProblem } from '#domain/quotes';

/**
 * EUR rates (floating: the rate applied is the one at processing time). Behind an adapter so a
 * production deployment plugs in a real feed; locally a seeded simulation moves each price
 * around a realistic reference like a market (small steps, stablecoins at their peg), the same in
 * every replica at the same minute, and says it is sample data.
 */
// What an adapter gives is what GET /api/rates and /api/rates/history answer (domain/contracts/rates.ts).
export type { Rates };
export type RatePoint = RateHistory['points'][number];
export interface RatesAdapter {
  current(): Promise<Rates>;
  /** EUR rates of one currency between two times, one point per step (for charts). */
  history?(code: string, from: Date, to: Date, stepMs: number): Promise<RatePoint[]>;
}

/** Stablecoins: their price stays at their peg (one US dollar, its reference in EUR), within ±0.1 %. */
const STABLECOINS = new Set(['USDT', 'USDC']);

/**
 * The walk's shape per tick (a minute): `step` is the most one tick's noise moves the price (a
 * uniform draw in ±step/2), `pull` the share of its distance from the reference it gives back each
 * tick (mean reversion). The distance then stays within ±step/2 ÷ pull, and a tick moves the price
 * by at most `step`: 0.2 % a minute within ±10 % for the market (typically within ±1 %), 0.002 % a minute within ±0.05 % for
 * stablecoins.
 */
export const WALK = {
  market: { step: 0.002, pull: 0.01 },
  stable: { step: 0.00002, pull: 0.02 },
} as const;
/** Ticks summed back from a time: what is older would weigh at most (1 − 0.01)^600 ≈ 0.24 %. */
const WINDOW = 600;

/** A 32-bit hash of a text, the seed of a currency's walk. */
function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Deterministic noise in [-0.5, 0.5] for a seed and a tick: every replica draws the same. */
function noise(seed: number, tick: number): number {
  // splitmix32 of the seed and the tick.
  let z = (seed ^ Math.imul(tick | 0, 0x9e3779b9) ^ Math.floor(tick / 0x100000000)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return ((z ^ (z >>> 15)) >>> 0) / 0xffffffff - 0.5;
}

/**
 * The walk's distance from the reference (a share: 0.01 is 1 % above) at a tick: a mean-reverting
 * random walk x(t) = (1 − pull)·x(t−1) + step·noise(t), written as its sum over the last WINDOW
 * ticks so that it is a function of the time alone (the same in every replica, any minute
 * computable for the charts, no state to keep).
 */
export function walkAt(seed: number, tick: number, shape: { step: number; pull: number }): number {
  let x = 0;
  let weight = 1;
  for (let k = 0; k < WINDOW; k++) {
    x += weight * shape.step * noise(seed, tick - k);
    weight *= 1 - shape.pull;
  }
  return x;
}

/**
 * The simulated price at a time (local mode): the reference moved by the walk of its minute, a
 * small step from the minute before, never far from the reference; stablecoins at their peg.
 * `seed` picks another walk (tests).
 */
export function simulatedRate(code: string, referenceEur: string, time: Date, seed = 0): string {
  const tick = Math.floor(time.getTime() / 60_000);
  const shape = STABLECOINS.has(code) ? WALK.stable : WALK.market;
  return new Big(referenceEur).times(1 + walkAt(seedOf(`${seed}:${code}`), tick, shape)).toPrecision(8);
}

export function simulatedRates(now: () => Date = () => new Date()): RatesAdapter {
  // The prices move once a minute: compute them once a minute (it takes about a millisecond).
  let cached: { minute: number; rates: Record<string, string> } | null = null;
  return {
    async current() {
      const time = now();
      const minute = Math.floor(time.getTime() / 60_000);
      if (cached?.minute !== minute) {
        cached = {
          minute,
          rates: Object.fromEntries(
            CURRENCIES.map((c) => [c.code, new Big(simulatedRate(c.code, c.referenceEur, time)).toString()]),
          ),
        };
      }
      // Made up: the pages mark them as sample data.
      return { at: time.toISOString(), rates: cached.rates, sample: true };
    },
    async history(code, from, to, stepMs) {
      const currency = CURRENCIES.find((c) => c.code === code);
      if (!currency) return [];
      const points: RatePoint[] = [];
      for (
        let t = Math.ceil(from.getTime() / stepMs) * stepMs;
        t <= to.getTime() && points.length < 2000;
        t += stepMs
      ) {
        const time = new Date(t);
        points.push({
          time: time.toISOString(),
          rate: new Big(simulatedRate(code, currency.referenceEur, time)).toString(),
        });
      }
      return points;
    },
  };
}

/** Why no quote could be made, as the API refuses it: the quote endpoint and placing an order answer alike. */
export function quoteRefusal(problem: QuoteProblem): DomainError {
  switch (problem) {
    case 'invalid_pair':
      return new DomainError('validation_failed', 'currencyTo', 'This pair does not fit the order type.');
    case 'invalid_amount':
      return new DomainError('invalid_amount', 'amount');
    case 'amount_below_minimum_fee':
      return new DomainError('amount_below_minimum_fee', 'amount');
    case 'network_fee_exceeds_amount':
      return new DomainError('network_fee_exceeds_amount', 'amount');
    case 'rate_unavailable':
      return new DomainError('try_again_soon');
  }
}
