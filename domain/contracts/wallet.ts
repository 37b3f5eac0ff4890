import { z } from 'zod';
import { SEND_STATUSES } from '../wallet';
import { idempotencyHeaders } from './common';

/**
 * The logged-in user's wallet: balances, reception addresses, sends (started, then confirmed with
 * the emailed code) and transactions. Amounts are decimal strings at the currency's decimals.
 */
export const walletBalanceSchema = z.object({
  currency: z.string(),
  name: z.string(),
  balance: z.string().describe('Decimal string at the currency’s decimals'),
  eurEstimate: z.string().describe('EUR value at the current rate, decimal string'),
  support: z.enum(['full', 'partial']),
  notice: z.string().optional(),
});
export type WalletBalance = z.infer<typeof walletBalanceSchema>;

export const balancesResponse = z.object({
  balances: z.array(walletBalanceSchema),
  totalEur: z.string(),
  ratesAt: z.string(),
});
export type Balances = z.infer<typeof balancesResponse>;

export const incomingDepositSchema = z
  .object({
    txid: z.string().describe('txid:vout'),
    amount: z.string(),
    confirmations: z.number().int(),
    required: z.number().int().describe('Credited at this many confirmations'),
  })
  .describe('A deposit seen on chain, not yet credited');
export type IncomingDeposit = z.infer<typeof incomingDepositSchema>;
export const walletAddressSchema = z.object({
  id: z.string(),
  currency: z.string(),
  address: z.string().describe('XRP: address:tag'),
  label: z.string().nullable(),
  incoming: z
    .array(incomingDepositSchema)
    .optional()
    .describe('Deposits confirming on chain (currencies with a real node)'),
});
export type WalletAddress = z.infer<typeof walletAddressSchema>;
export const addressesResponse = z.object({ addresses: z.array(walletAddressSchema) });
export type AddressesResponse = z.infer<typeof addressesResponse>;

/** A label: trimmed, at most 100 characters (error code too_long). */
const label = z.string().trim().max(100, 'too_long');

export const createAddressBody = z.object({ currency: z.string().max(10), label: label.optional() });
export type CreateAddressBody = z.input<typeof createAddressBody>;

export const walletIdParams = z.object({ id: z.string().max(64) });

export const relabelAddressBody = z.object({ label: label.nullable() });
export type RelabelAddressBody = z.input<typeof relabelAddressBody>;

export const walletTransactionSchema = z.object({
  id: z.string(),
  date: z.string(),
  type: z.string().describe('deposit, send, internal, fee, order, faucet, …'),
  direction: z.enum(['in', 'out']),
  currency: z.string(),
  amount: z.string(),
  fee: z.string().nullable(),
  eurValue: z.string().nullable().describe('EUR value at the time of the transaction'),
  address: z.string().nullable(),
  label: z.string().nullable(),
  txid: z
    .string()
    .nullable()
    .describe('The chain transaction: a deposit’s, or a send’s (and its network fee’s) once paid out'),
  status: z
    .enum(['completed', 'awaiting_approval'])
    .describe('awaiting_approval: a send (and its fee) held until two operators approve its payout'),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const transactionsQuery = z.object({
  currency: z.string().max(10).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  format: z.enum(['json', 'csv']).default('json'),
});
export type TransactionsQuery = z.input<typeof transactionsQuery>;

export const transactionsPageSchema = z.object({
  transactions: z.array(walletTransactionSchema),
  nextCursor: z.string().nullable(),
});
export type TransactionsPage = z.infer<typeof transactionsPageSchema>;
/** JSON, or with ?format=csv the CSV text. */
export const transactionsResponse = z.union([transactionsPageSchema, z.string()]);

export const walletSendSchema = z.object({
  id: z.string(),
  status: z.enum(SEND_STATUSES),
  currency: z.string(),
  address: z.string(),
  amount: z.string(),
  networkFee: z.string(),
  internal: z.boolean().describe('To another Muntly wallet: instant, no network fee'),
  label: z.string().nullable(),
  txid: z.string().nullable().describe('An external send: the chain transaction id once paid out'),
});
export type WalletSend = z.infer<typeof walletSendSchema>;

export const startSendHeaders = idempotencyHeaders;
export const startSendBody = z.object({
  currency: z.string().max(10),
  address: z.string().max(200),
  amount: z.string().max(40),
  label: label.optional(),
});
export type StartSendBody = z.input<typeof startSendBody>;

export const sendFeeQuery = z.object({ currency: z.string().max(10), address: z.string().max(200) });
export type SendFeeQuery = z.input<typeof sendFeeQuery>;
export const sendFeeResponse = z.object({
  currency: z.string(),
  networkFee: z.string().describe('What a send to this address pays on top of its amount; 0 to another Muntly wallet'),
  internal: z.boolean().describe('The address is another Muntly wallet: the send is instant and free'),
});
export type SendFee = z.infer<typeof sendFeeResponse>;

export const confirmSendBody = z.object({ code: z.string().max(64) });
export type ConfirmSendBody = z.infer<typeof confirmSendBody>;
export const confirmedSendResponse = walletSendSchema.extend({ message: z.string() });
export type ConfirmedSend = z.infer<typeof confirmedSendResponse>;
