import { apiRequest } from '../../../app/api';
import type { IdentityKind, IdentityResponse, VerificationRequestResponse } from '#domain/contracts/identity';
import type {
  MyProof,
  MyProofResponse,
  Reserves,
  SnapshotSummary,
  SnapshotsResponse,
} from '#domain/contracts/liabilities';
import type {
  AddEntryBody,
  AddressBookEntry,
  SecurityOverview,
  SecuritySettingsBody,
} from '#domain/contracts/protection';
import type { Rates } from '#domain/contracts/rates';
import type {
  AddressesResponse,
  Balances,
  ConfirmSendBody,
  ConfirmedSend,
  CreateAddressBody,
  RelabelAddressBody,
  SendFee,
  SendFeeQuery,
  StartSendBody,
  TransactionsPage,
  TransactionsQuery,
  WalletAddress,
  WalletBalance,
  WalletSend,
  WalletTransaction,
} from '#domain/contracts/wallet';
import type { Language } from '#domain/languages';
import type { PublishedSnapshot } from '#domain/liabilities';

/** The wallet API (balances, reception addresses, sends, transactions): the contract's types. */
export type Balance = WalletBalance;
export type Address = WalletAddress;
/** A started send, or a confirmed one with the API's message. */
export type Send = WalletSend & Partial<Pick<ConfirmedSend, 'message'>>;
export type Transaction = WalletTransaction;

export const getBalances = (token: string, language: Language) =>
  apiRequest<Balances>(token, language, '/api/wallet/balances');
export const getAddresses = async (token: string, language: Language) =>
  (await apiRequest<AddressesResponse>(token, language, '/api/wallet/addresses')).addresses;
export const createAddress = (token: string, language: Language, currency: string, label?: string) =>
  apiRequest<Address>(token, language, '/api/wallet/addresses', {
    body: { currency, ...(label ? { label } : {}) } satisfies CreateAddressBody,
  });
export const relabelAddress = (token: string, language: Language, id: string, label: string) =>
  apiRequest<Address>(token, language, `/api/wallet/addresses/${id}`, {
    method: 'PATCH',
    body: { label: label || null } satisfies RelabelAddressBody,
  });
export const startSend = (token: string, language: Language, body: StartSendBody, idempotencyKey: string) =>
  apiRequest<WalletSend>(token, language, '/api/wallet/sends', {
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
export const getSend = (token: string, language: Language, id: string) =>
  apiRequest<WalletSend>(token, language, `/api/wallet/sends/${id}`);
/** The network fee a send to this address would pay: none to another Muntly wallet (the server knows whose addresses are Muntly's). */
export const getSendFee = (token: string, language: Language, query: SendFeeQuery) =>
  apiRequest<SendFee>(token, language, `/api/wallet/send-fee?${new URLSearchParams(query satisfies SendFeeQuery)}`);
export const confirmSend = (token: string, language: Language, id: string, code: string) =>
  apiRequest<ConfirmedSend>(token, language, `/api/wallet/sends/${id}/confirm`, {
    body: { code } satisfies ConfirmSendBody,
  });
/** The floating EUR rates (public), for the EUR value of an amount before it is sent. */
export const getRates = (language: Language) => apiRequest<Rates>(null, language, '/api/rates');
export const getTransactions = (token: string, language: Language, query: { currency?: string; cursor?: string }) => {
  const params = new URLSearchParams({
    ...(query.currency ? { currency: query.currency } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
  } satisfies TransactionsQuery);
  return apiRequest<TransactionsPage>(token, language, `/api/wallet/transactions?${params}`);
};
export const getTransactionsCsv = (token: string, language: Language, currency?: string) =>
  apiRequest<string>(token, language, `/api/wallet/transactions?format=csv${currency ? `&currency=${currency}` : ''}`);

/** Account protection (/api/wallet/security, /api/wallet/address-book): every change answers the new overview. */
export type { AddressBookEntry, SecurityOverview };
export const getSecurity = (token: string, language: Language) =>
  apiRequest<SecurityOverview>(token, language, '/api/wallet/security');
export const changeSecurity = (token: string, language: Language, body: SecuritySettingsBody) =>
  apiRequest<SecurityOverview>(token, language, '/api/wallet/security', { method: 'PATCH', body });
export const freezeSends = (token: string, language: Language) =>
  apiRequest<SecurityOverview>(token, language, '/api/wallet/security/freeze', { method: 'POST' });
export const requestUnfreeze = (token: string, language: Language) =>
  apiRequest<SecurityOverview>(token, language, '/api/wallet/security/unfreeze', { method: 'POST' });
export const confirmUnfreeze = (token: string, language: Language, code: string) =>
  apiRequest<SecurityOverview>(token, language, '/api/wallet/security/unfreeze/confirm', { body: { code } });
export const addBookEntry = (token: string, language: Language, body: AddEntryBody) =>
  apiRequest<AddressBookEntry>(token, language, '/api/wallet/address-book', { body });
export const removeBookEntry = (token: string, language: Language, id: string) =>
  apiRequest<AddressBookEntry>(token, language, `/api/wallet/address-book/${id}`, { method: 'DELETE' });

/**
 * The bank verification the wallet needs (from GET /api/identity), and the one-click request
 * to enable it (POST /api/identity/bank/request).
 */
export type BankVerification = Pick<IdentityKind, 'phase' | 'requestedAt'>;
const bankOf = (kinds: IdentityKind[]): BankVerification | null => kinds.find((k) => k.kind === 'bank') ?? null;
/** Every verification kind of the account (GET /api/identity): the wallet's home shows them as steps. */
export const getVerifications = async (token: string, language: Language) =>
  (await apiRequest<IdentityResponse>(token, language, '/api/identity')).kinds;
export type { IdentityKind };
export const getBankVerification = async (token: string, language: Language) =>
  bankOf((await apiRequest<IdentityResponse>(token, language, '/api/identity')).kinds);
export const requestBankVerification = async (token: string, language: Language) =>
  bankOf(
    (await apiRequest<VerificationRequestResponse>(token, language, '/api/identity/bank/request', { method: 'POST' }))
      .kinds,
  );

/** Proof of liabilities: your leaves and paths per snapshot, the published snapshots, and one whole published snapshot (its roots and reserves). */
export const getMyProofs = (token: string, language: Language) =>
  apiRequest<MyProofResponse>(token, language, '/api/wallet/proof');
export const getSnapshots = (language: Language) =>
  apiRequest<SnapshotsResponse>(null, language, '/api/liabilities?limit=20');
export const getPublishedSnapshot = (language: Language, snapshotId: number) =>
  apiRequest<PublishedSnapshot & { reserves?: Reserves }>(null, language, `/api/liabilities/${snapshotId}`);
export type { MyProof, SnapshotSummary };
