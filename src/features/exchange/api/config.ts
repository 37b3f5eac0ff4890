import { apiRequest, ApiFailure } from '../../../components/api';
import type { Language } from '../../../i18n/languages';
import type { ExchangeConfig } from './types';

/**
 * GET /api/exchange/config: whether buying and selling are on, and the account buyers and
 * depositors pay into. Until a server has the endpoint (404), the pages assume buying and
 * selling are on and learn otherwise from a `buy_sell_disabled` answer.
 */
let pending: Promise<ExchangeConfig> | undefined;

export function getExchangeConfig(language: Language): Promise<ExchangeConfig> {
  pending ??= apiRequest<ExchangeConfig>(null, language, '/api/exchange/config').catch((error: unknown) => {
    if (error instanceof ApiFailure && error.status === 404) return { buySellEnabled: true, bank: null };
    pending = undefined;
    throw error;
  });
  return pending;
}
