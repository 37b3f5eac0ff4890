import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { FAILURE_REASONS, ORDER_STATUSES, ORDER_TYPES, REFUNDS } from '#domain/orders';
import { units } from '../columns';
import { oneOf } from '../one-of';
import { accounts } from './accounts';

/** The orders module's table (server/src/modules/orders). */

/**
 * Exchange orders. The reference (ABCD-EFGH-IJKL-MNOP, ~75 bits) with the email is what an
 * anonymous customer uses to look the order up; its first two groups are the bank payment reason.
 *
 * Money at rest is one representation, as in the ledger: every amount and fee is a bigint in the
 * minor unit of its currency (`knownDecimals` in domain/currencies.ts: BTC satoshis, ETH wei, EUR
 * cents), stored as `units` (numeric(38, 0)) where the currency can be a crypto one. Which currency each column is in is written next to it. Rates are `numeric` (exact,
 * read as a decimal string), not a scaled bigint: a rate is a ratio kept to 10 significant digits
 * whose size spans 19 orders of magnitude between the listed currencies (SHIB→BTC 2.6e-10,
 * BTC→SHIB 3.8e9), so no one scale fits a bigint, and it is a record of the price applied, never
 * summed into a balance. Migration 0012 converted the former decimal text columns.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull(),
    shortReference: text('short_reference').notNull(),
    type: text('type', { enum: ORDER_TYPES }).notNull(),
    currencyFrom: text('currency_from').notNull(),
    currencyTo: text('currency_to').notNull(),
    /** What was ordered, in currencyFrom's minor units. */
    amount: units('amount').notNull(),
    /** Its value in EUR cents when placed (the order limits judge it). */
    amountEur: bigint('amount_eur', { mode: 'bigint' }).notNull(),
    email: text('email').notNull(),
    /**
     * The customer's link key (domain/customer-key.ts): the limits count by it, the messages go to
     * `email`. A variant spelling of one mailbox (case, +tag, Gmail dots, a look-alike letter) is one key.
     */
    emailKey: text('email_key').notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'restrict' }),
    address: text('address'),
    /**
     * A sell paid out to an IBAN: the account holder's name as the transfer carries it, in SEPA's
     * Latin characters (domain/payee.ts), which the payee's bank checks against the IBAN.
     */
    beneficiary: text('beneficiary'),
    /** Who owns the payout destination (`payoutOwnerKey`): an XRP account whatever its tag, an ETH address in one case, an IBAN. */
    payoutKey: text('payout_key'),
    /** The IBAN a bank payment of this order came from, once a statement names it: the payer's week counts by it. */
    payerKey: text('payer_key'),
    paymentMethod: text('payment_method'),
    sendToMyWallet: boolean('send_to_my_wallet').notNull().default(false),
    useMyWallet: boolean('use_my_wallet').notNull().default(false),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('new'),
    /** The quote when placed: units of currencyTo per unit of currencyFrom (numeric, see above). */
    estimatedRate: numeric('estimated_rate').notNull(),
    /** In currencyTo's minor units, as is the network fee. */
    estimatedAmountConverted: units('estimated_amount_converted').notNull(),
    /** EUR cents. */
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    estimatedNetworkFee: units('estimated_network_fee').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** The language the customer ordered in: their emails are written in it. */
    language: text('language').notNull().default('en'),
    /** Sell and swap: where the customer sends the crypto (a house address, one per order). */
    receivingAddress: text('receiving_address'),
    /** What arrived (a bank payment, crypto, or the wallet's debit), in currencyFrom's minor units. */
    amountReceived: units('amount_received'),
    /** Where a refund goes for an anonymous sell/swap: the address the crypto came from. */
    senderAddress: text('sender_address'),
    /** What settling applied: the rate (numeric), converted amount and network fee in currencyTo's minor units, fee in EUR cents. */
    actualRate: numeric('actual_rate'),
    actualAmountConverted: units('actual_amount_converted'),
    actualNetworkFee: units('actual_network_fee'),
    actualFee: bigint('actual_fee', { mode: 'bigint' }),
    payoutTxid: text('payout_txid'),
    /** completed_failure: why (an error code) and where the money went back (bank, wallet, sender). */
    failureReason: text('failure_reason', { enum: FAILURE_REASONS }),
    refund: text('refund', { enum: REFUNDS }),
    fundedAt: timestamp('funded_at', { withTimezone: true }),
    /**
     * When the worker converted the order and queued its payout; the order stays processing until
     * the payout completes (or fails and is refunded).
     */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** An order nobody paid in time (ORDER_EXPIRY_DAYS): a payment that still arrives is refunded. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    /** Paid from a business bank account (said by the customer, or found by the operator on the payment). */
    fromBusinessAccount: boolean('from_business_account').notNull().default(false),
    /** Funded but waiting: the payment came from a business account that is not verified yet. */
    businessHold: boolean('business_hold').notNull().default(false),
    /** Funded but waiting for an operator: the payer's week passed the anonymous cap when the payment arrived (exchange gate). */
    reviewHold: boolean('review_hold').notNull().default(false),
    /** The operator who released a held order to be converted past the anonymous weekly cap (audited as order.review). */
    reviewReleasedBy: text('review_released_by'),
    /** A deposit the exchange gate would not convert, kept in euros: the refusal's error code. */
    conversionRefusal: text('conversion_refusal', { enum: FAILURE_REASONS }),
    /**
     * An order paid from the wallet to a destination outside it is a send: it waits (status new)
     * for the code emailed to the account's owner; only a hash is kept, single use, with its expiry
     * and wrong attempts (one-time-codes.ts).
     */
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeAttempts: integer('code_attempts').notNull().default(0),
    /** A payout of this order (its delivery or its refund) waits for two operators' approval. */
    payoutAwaitingApproval: boolean('payout_awaiting_approval').notNull().default(false),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Retention (modules/retention): when its email, addresses and IBANs were erased, 5 years after the relationship ended; amounts stay. */
    personalDataErasedAt: timestamp('personal_data_erased_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_reference').on(t.reference),
    uniqueIndex('orders_idempotency_key').on(t.idempotencyKey),
    // Partial indexes hold only the rows they serve, so placing an anonymous buy (no account, no
    // receiving address, status new) writes three index entries less.
    uniqueIndex('orders_receiving_address')
      .on(t.receivingAddress)
      .where(sql`${t.receivingAddress} is not null`),
    index('orders_email').on(t.email),
    // The limits link a customer's orders by these keys.
    index('orders_email_key').on(t.emailKey),
    index('orders_payout_key')
      .on(t.payoutKey)
      .where(sql`${t.payoutKey} is not null`),
    index('orders_payer_key')
      .on(t.payerKey)
      .where(sql`${t.payerKey} is not null`),
    // (orders_address went in migration 0042: the weekly volume counts by payout_key since 0030,
    // and no query looks an order up by its address.)
    index('orders_account')
      .on(t.accountId)
      .where(sql`${t.accountId} is not null`),
    // The worker's queue: funded orders waiting to be converted (not those waiting for their payout).
    index('orders_processing')
      .on(t.fundedAt)
      .where(sql`${t.status} = 'processing' and ${t.settledAt} is null and ${t.reviewHold} = false`),
    index('orders_short_reference').on(t.shortReference),
    check('orders_type', oneOf(t.type, ORDER_TYPES)),
    check('orders_status', oneOf(t.status, ORDER_STATUSES)),
    check('orders_refund', sql`${t.refund} is null or ${oneOf(t.refund, REFUNDS)}`),
  ],
);
