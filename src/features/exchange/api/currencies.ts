import { apiRequest } from '../../../app/api';
import type { CurrenciesResponse } from '#domain/contracts/rates';
import type { Language } from '#domain/languages';
import type { CurrencyInfo } from './types';

/** GET /api/currencies: the 24 listed currencies, fetched once per page load. */
let pending: Promise<CurrencyInfo[]> | undefined;

export function getCurrencies(language: Language): Promise<CurrencyInfo[]> {
  pending ??= apiRequest<CurrenciesResponse>(null, language, '/api/currencies').then((r) => r.currencies);
  pending.catch(() => {
    pending = undefined; // the next attempt asks again
  });
  return pending;
}
