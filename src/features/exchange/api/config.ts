import { apiRequest, ApiFailure } from '../../../components/api';
import type { Language } from '../../../../domain/languages';
import type { ExchangeConfig } from './types';

/**
 * GET /api/exchange/config: whether buying and selling are on, the account buyers and
 * depositors pay into, and the block explorers transaction hashes link to (the API lets
 * browsers cache it for a minute). A server without the endpoint (404) is taken as "on": a
 * switched-off API still answers `buy_sell_disabled`.
 */
export function getExchangeConfig(language: Language): Promise<ExchangeConfig> {
  return apiRequest<ExchangeConfig>(null, language, '/api/exchange/config').catch((error: unknown) => {
    if (error instanceof ApiFailure && error.status === 404) return { buySellEnabled: true, bank: null, explorers: {} };
    throw error;
  });
}
