import { apiRequest } from '../../../components/api';
import type { Language } from '../../../i18n/languages';
import type { OrderType, Quote } from './types';

/** POST /api/quotes: the estimate for an order; `amount` is in `currencyFrom`. */
export type QuoteRequest = { type: OrderType; currencyFrom: string; currencyTo: string; amount: string; sendToMyWallet?: boolean };

export const postQuote = (language: Language, body: QuoteRequest, signal?: AbortSignal) =>
  apiRequest<Quote>(null, language, '/api/quotes', { body, signal });
