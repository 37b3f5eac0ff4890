import { publicRequest } from './public-api';
import type { Language } from '../../../i18n/languages';

/** GET /api/rates (floating EUR rates now) and GET /api/rates/history (for the charts). */
export type Rates = { at: string; rates: Record<string, string> };
export type RateHistory = { currency: string; points: { time: string; rate: string }[] };

export const getRates = (language: Language) => publicRequest<Rates>(language, '/api/rates');
export const getRateHistory = (language: Language, currency: string, days: number) =>
  publicRequest<RateHistory>(language, `/api/rates/history?currency=${encodeURIComponent(currency)}&days=${days}`);
