import { z } from 'zod';
import { FAILURE_REASONS, ORDER_STATUSES, ORDER_TYPES, PLACED_ORDER_TYPES, REFUNDS } from '../orders';
import { PAYOUT_RETURN_STATES } from '../returns';
import { idempotencyHeaders } from './common';
import { incomingDepositSchema } from './wallet';

/**
 * The exchange: GET /api/exchange/config, POST /api/orders, POST /api/orders/lookup,
 * GET /api/orders/:reference/events (SSE, event "order" carrying an Order) and GET /api/me/orders.
 * Amounts are decimal strings, never JSON numbers.
 */
export const PAYMENT_METHODS = ['sepa', 'sepa_instant'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const bankAccountSchema = z.object({
  iban: z.string(),
  bic: z.string(),
  beneficiary: z
    .string()
    .describe("The account holder: the operator's legal name, which payers' banks check (Verification of Payee)"),
  sample: z
    .boolean()
    .optional()
    .describe("Local mode's sample account and holder, not a real one: the site marks them"),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

export const exchangeConfigResponse = z.object({
  buySellEnabled: z.boolean(),
  bank: bankAccountSchema,
  explorers: z
    .record(z.string(), z.string())
    .describe(
      'Per currency, a block explorer page for a transaction: {txid} is where the hash goes (https://mempool.space/tx/{txid}); empty in local mode',
    ),
});
export type ExchangeConfig = z.infer<typeof exchangeConfigResponse>;

export const paymentDetailsSchema = z.object({
  iban: z.string(),
  bic: z.string(),
  beneficiary: z.string(),
  amount: z.string(),
  reason: z.string(),
  methods: z.array(z.string()),
  epcPayload: z.string(),
  sample: z.boolean().optional().describe("Local mode's sample account: the site marks it"),
});
export type PaymentDetails = z.infer<typeof paymentDetailsSchema>;

export const receivingSchema = z.object({
  currency: z.string(),
  address: z.string(),
  tag: z.string().nullable(),
  amount: z.string(),
  incoming: z
    .array(incomingDepositSchema)
    .optional()
    .describe('Coins seen on chain at the address, confirming (currencies with a real node)'),
});
export type Receiving = z.infer<typeof receivingSchema>;

/** A payout of the order that the payee's bank returned, and what became of the money since. */
export const payoutReturnSchema = z.object({
  reason: z
    .string()
    .nullable()
    .describe("The bank's return reason code (ISO 20022 ExternalReturnReason: AC04 …); null when it gave none"),
  amount: z.string().describe('What the customer is owed again, EUR'),
  iban: z.string().nullable().describe('The IBAN the payout went to and came back from'),
  returnedAt: z.string(),
  state: z.enum(PAYOUT_RETURN_STATES),
  newIban: z.string().nullable().describe('The IBAN the customer gave instead'),
  awaitingApproval: z.boolean().describe('The new payout waits for two operators'),
});
export type PayoutReturn = z.infer<typeof payoutReturnSchema>;

/** POST /api/orders/{reference}/new-iban: another IBAN for a returned payout, from its owner (logged in) or with the emailed link's token. */
export const newIbanBody = z.object({
  iban: z.string().max(60),
  holderName: z
    .string()
    .max(200)
    .optional()
    .describe('The account holder, as their bank knows them (required with a token)'),
  token: z.string().max(200).optional().describe("The emailed link's token (anonymous orders)"),
});
export type NewIbanBody = z.infer<typeof newIbanBody>;
export const newIbanParams = z.object({ reference: z.string().max(40) });
export const returnLinkBody = z.object({ token: z.string().max(200) });

export const orderSchema = z.object({
  reference: z.string().describe('ABCD-EFGH-IJKL-MNOP: keep it, with your email it finds the order'),
  shortReference: z.string().describe('The bank payment reason'),
  type: z.enum(ORDER_TYPES),
  currencyFrom: z.string(),
  currencyTo: z.string(),
  amount: z.string(),
  amountEur: z.string(),
  address: z
    .string()
    .nullable()
    .describe('Delivery: a crypto address (XRP address:tag) or, for a sell, the IBAN; null into the Muntly wallet'),
  beneficiary: z
    .string()
    .nullable()
    .describe("A sell to an IBAN: the account holder's name as the transfer carries it (Latin letters); else null"),
  rateType: z.literal('floating'),
  paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
  estimatedRate: z.string(),
  estimatedAmountConverted: z.string(),
  estimatedNetworkFee: z.string(),
  fee: z.string(),
  status: z.enum(ORDER_STATUSES),
  date: z.string(),
  sendToMyWallet: z.boolean(),
  useMyWallet: z.boolean(),
  paymentDetails: paymentDetailsSchema.nullable(),
  receiving: receivingSchema.nullable().describe('Sell and swap: send the crypto here'),
  amountReceived: z.string().nullable(),
  actualRate: z.string().nullable(),
  actualAmountConverted: z.string().nullable(),
  actualNetworkFee: z.string().nullable(),
  actualFee: z.string().nullable(),
  payoutTxid: z.string().nullable(),
  // refund: where the money went back; null when none was received (an order that expired unpaid).
  failure: z.object({ reason: z.enum(FAILURE_REASONS), refund: z.enum(REFUNDS).nullable() }).nullable(),
  completedAt: z.string().nullable(),
  businessHold: z.boolean().describe('Paid from a business bank account: waits until the business is verified'),
  payoutAwaitingApproval: z
    .boolean()
    .describe('Its delivery or refund waits for two operators to approve it (large amounts, newly verified accounts)'),
  awaitingCode: z
    .boolean()
    .describe(
      'Paid from the wallet to a destination outside it: waits for the code emailed to the account (POST /api/orders/{reference}/confirm)',
    ),
  reviewHold: z
    .boolean()
    .describe("Paid, and waiting for an operator: the payer's week passed the limit for customers without an account"),
  keptInEuros: z.enum(FAILURE_REASONS).nullable().describe('A deposit kept in euros instead of converted: why'),
  email: z
    .string()
    .optional()
    .describe("The order's email address: only in the owner's own list (it opens the live events)"),
  payoutReturn: payoutReturnSchema
    .nullable()
    .optional()
    .describe("Its payout was sent back by the payee's bank (server/src/modules/bank/returns.ts)"),
  payBy: z
    .string()
    .nullable()
    .optional()
    .describe(
      'While it waits for the payment: when it expires unpaid (ORDER_EXPIRY_DAYS after it was placed); a payment after that is refunded',
    ),
  link: z
    .string()
    .optional()
    .describe(
      'A signed token that opens this order (POST /api/orders/open) without its email and reference: only in the answer to its placement and to an opened link',
    ),
});
export type Order = z.infer<typeof orderSchema>;

export const confirmOrderParams = z.object({ reference: z.string().max(40) });
export const confirmOrderBody = z.object({ code: z.string().max(40) });
export type ConfirmOrderBody = z.infer<typeof confirmOrderBody>;

export const placeOrderHeaders = idempotencyHeaders;
// amount is always in currencyFrom.
export const placeOrderBody = z.object({
  type: z.enum(PLACED_ORDER_TYPES),
  currencyFrom: z.string().max(10),
  currencyTo: z.string().max(10),
  amount: z.string().max(40),
  email: z.string().max(254),
  address: z.string().max(200).optional().describe('Crypto address (XRP address:tag), or the IBAN for a sell'),
  beneficiary: z
    .string()
    .max(200)
    .optional()
    .describe(
      "A sell to an IBAN: the account holder's full name, which the payee's bank checks against the IBAN; another script is transliterated to Latin letters (Юлия Коваленко → Yuliya Kovalenko), 2–70 characters",
    ),
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  sendToMyWallet: z.boolean().optional(),
  useMyWallet: z.boolean().optional(),
  fromBusinessAccount: z
    .boolean()
    .optional()
    .describe('A buy paid from a business bank account: needs a login and business verification'),
});
/** The order as the site sends it and the API takes it. */
export type PlaceOrderBody = z.infer<typeof placeOrderBody>;

/** POST /api/orders/open: the signed token of an order's link (its confirmation email, the page's address after placing it). */
export const openOrderBody = z.object({ token: z.string().max(200) });
export type OpenOrderBody = z.infer<typeof openOrderBody>;

export const lookupOrderBody = z.object({ email: z.string().max(254), reference: z.string().max(40) });
export type LookupOrderBody = z.infer<typeof lookupOrderBody>;

export const orderEventsParams = z.object({ reference: z.string().max(40) });
/** Who may follow an order: its email (rate-limited, with the reference) or its signed link's token. */
export const orderEventsQuery = z
  .object({ email: z.string().max(254).optional(), link: z.string().max(200).optional() })
  .refine((query) => query.email !== undefined || query.link !== undefined, {
    path: ['email'],
    message: 'email or link is required',
  });

export const myOrdersResponse = z.object({ orders: z.array(orderSchema) });
export type MyOrdersResponse = z.infer<typeof myOrdersResponse>;
