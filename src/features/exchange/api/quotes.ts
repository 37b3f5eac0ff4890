import { apiRequest } from '../../../app/api';
import type { QuoteBody } from '#domain/contracts/rates';
import type { Language } from '#domain/languages';
import type { Quote } from './types';

/** POST /api/quotes: the estimate for an order; `amount` is in `currencyFrom`. */
export type QuoteRequest = QuoteBody;

export const postQuote = (language: Language, body: QuoteRequest, signal?: AbortSignal) =>
  apiRequest<Quote>(null, language, '/api/quotes', { body, signal });
