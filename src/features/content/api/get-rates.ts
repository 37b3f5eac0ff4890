import { publicRequest } from './public-api';
import type { Rates, RateHistory } from '#domain/contracts/rates';
import type { Language } from '#domain/languages';

/** GET /api/rates (floating EUR rates now) and GET /api/rates/history (for the charts). */
export type { Rates, RateHistory };

export const getRates = (language: Language) => publicRequest<Rates>(language, '/api/rates');
export const getRateHistory = (language: Language, currency: string, days: number) =>
  publicRequest<RateHistory>(language, `/api/rates/history?currency=${encodeURIComponent(currency)}&days=${days}`);
