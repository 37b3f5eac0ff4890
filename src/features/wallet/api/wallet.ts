import { apiRequest } from '../../../components/api';
import type { Language } from '../../../i18n/languages';

/** The wallet API (balances, reception addresses, sends, transactions). */
export type Balance = { currency: string; name: string; balance: string; eurEstimate: string; support: 'full' | 'partial'; notice?: string };
export type Address = { id: string; currency: string; address: string; label: string | null };
export type Send = { id: string; status: 'awaiting_code' | 'processing' | 'completed' | 'failed'; currency: string; address: string; amount: string; networkFee: string; internal: boolean; label: string | null; message?: string };
export type Transaction = { id: string; date: string; type: string; direction: 'in' | 'out'; currency: string; amount: string; fee: string | null; eurValue: string | null; address: string | null; label: string | null };

export const getBalances = (token: string, language: Language) =>
  apiRequest<{ balances: Balance[]; totalEur: string; ratesAt: string }>(token, language, '/api/wallet/balances');
export const getAddresses = async (token: string, language: Language) => (await apiRequest<{ addresses: Address[] }>(token, language, '/api/wallet/addresses')).addresses;
export const createAddress = (token: string, language: Language, currency: string, label?: string) =>
  apiRequest<Address>(token, language, '/api/wallet/addresses', { body: { currency, ...(label ? { label } : {}) } });
export const relabelAddress = (token: string, language: Language, id: string, label: string) =>
  apiRequest<Address>(token, language, `/api/wallet/addresses/${id}`, { method: 'PATCH', body: { label: label || null } });
export const startSend = (token: string, language: Language, body: { currency: string; address: string; amount: string; label?: string }, idempotencyKey: string) =>
  apiRequest<Send>(token, language, '/api/wallet/sends', { body, headers: { 'idempotency-key': idempotencyKey } });
export const confirmSend = (token: string, language: Language, id: string, code: string) =>
  apiRequest<Send>(token, language, `/api/wallet/sends/${id}/confirm`, { body: { code } });
export const getTransactions = (token: string, language: Language, query: { currency?: string; cursor?: string }) => {
  const params = new URLSearchParams({ ...(query.currency ? { currency: query.currency } : {}), ...(query.cursor ? { cursor: query.cursor } : {}) });
  return apiRequest<{ transactions: Transaction[]; nextCursor: string | null }>(token, language, `/api/wallet/transactions?${params}`);
};
export const getTransactionsCsv = (token: string, language: Language, currency?: string) =>
  apiRequest<string>(token, language, `/api/wallet/transactions?format=csv${currency ? `&currency=${currency}` : ''}`);
