import { createHash } from 'node:crypto';
import Big from 'big.js';
import { CURRENCIES } from '../../../../domain/currencies';
import { DomainError } from '../../../../domain/errors';
import type { Rates, RateHistory } from '../../../../domain/contracts/rates';
import type { QuoteProblem } from '../../../../domain/quotes';

/**
 * EUR rates (floating: the rate applied is the one at processing time). Behind an adapter so a
 * production deployment plugs in a real feed; locally a seeded simulation moves each price
 * around a realistic reference, the same in every replica at the same minute.
 */
// What an adapter gives is what GET /api/rates and /api/rates/history answer (domain/contracts/rates.ts).
export type { Rates };
export type RatePoint = RateHistory['points'][number];
export interface RatesAdapter {
  current(): Promise<Rates>;
  /** EUR rates of one currency between two times, one point per step (for charts). */
  history?(code: string, from: Date, to: Date, stepMs: number): Promise<RatePoint[]>;
}

/** Deterministic noise in [-1, 1] for a currency and a time step. */
function noise(code: string, step: number): number {
  const digest = createHash('sha256').update(`${code}:${step}`).digest();
  return digest.readUInt32BE(0) / 0xffffffff - 0.5;
}

/** The simulated price at a time: the reference times a smooth walk of at most about ±5 %. */
export function simulatedRate(code: string, referenceEur: string, time: Date): string {
  const minute = Math.floor(time.getTime() / 60_000);
  let drift = 0;
  for (let k = 0; k < 8; k++) drift += noise(code, Math.floor(minute / 2 ** k)) / 2 ** (k + 1);
  return new Big(referenceEur).times(1 + drift * 0.1).toPrecision(8);
}

export function simulatedRates(now: () => Date = () => new Date()): RatesAdapter {
  // The prices move once a minute: compute them once a minute (it takes about a millisecond).
  let cached: { minute: number; rates: Record<string, string> } | null = null;
  return {
    async current() {
      const time = now();
      const minute = Math.floor(time.getTime() / 60_000);
      if (cached?.minute !== minute) {
        cached = { minute, rates: Object.fromEntries(CURRENCIES.map((c) => [c.code, new Big(simulatedRate(c.code, c.referenceEur, time)).toString()])) };
      }
      return { at: time.toISOString(), rates: cached.rates };
    },
    async history(code, from, to, stepMs) {
      const currency = CURRENCIES.find((c) => c.code === code);
      if (!currency) return [];
      const points: RatePoint[] = [];
      for (let t = Math.ceil(from.getTime() / stepMs) * stepMs; t <= to.getTime() && points.length < 2000; t += stepMs) {
        const time = new Date(t);
        points.push({ time: time.toISOString(), rate: new Big(simulatedRate(code, currency.referenceEur, time)).toString() });
      }
      return points;
    },
  };
}

/** The EUR value of an amount in minor units (the site shows the same value before a send). */
export { eurValueMinor } from '../../../../domain/quotes';

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
