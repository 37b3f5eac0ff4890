import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BANK_PAYMENT_STATUSES } from '#domain/bank';
import { oneOf } from '../one-of';
import { orders } from './orders';
// The bank's and the payouts' tables name each other (a return names its payout; a payout names the
// bank payment it refunds and the export file it went out in). Drizzle reads a foreign key's
// column when it builds the table's config, not when the module loads, so the cycle is harmless.
// eslint-disable-next-line import-x/no-cycle
import { payouts } from './payouts';

/** The bank module's tables (server/src/modules/bank): statements, returned payouts, SEPA export files. */

/**
 * Bank statements (camt.053, server/src/modules/bank): one row per incoming credit, keyed by the
 * bank's own reference of the entry, so importing a statement twice books nothing twice (the
 * unique index, not the code, decides). A credit whose reason names an order or a deposit is
 * `matched` at once; the others wait `open` in the unmatched queue until an operator assigns
 * them to an order or deposit (`assigned`) or sends them back to the payer (`refunded`). The
 * payer's IBAN and name are kept for refunds: an order refunded later goes back to them too.
 */
export const bankPayments = pgTable(
  'bank_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** AcctSvcrRef, else NtryRef, else a hash of the entry (`/n` for the n-th payment of a batch). */
    entryRef: text('entry_ref').notNull(),
    statementId: text('statement_id'),
    /** Minor units of `currency` (EUR cents). */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    payerName: text('payer_name'),
    payerIban: text('payer_iban'),
    /** The remittance information as the payer wrote it (unstructured lines and structured references). */
    remittance: text('remittance').notNull(),
    bookingDate: date('booking_date', { mode: 'string' }),
    status: text('status', { enum: BANK_PAYMENT_STATUSES }).notNull(),
    /** Why the import could not match it (an error code of the intake, e.g. not_found). */
    unmatchedReason: text('unmatched_reason'),
    /** When the reason names several open orders or accounts (payment_reference_ambiguous): their references, for the operator. */
    candidates: jsonb('candidates').$type<string[]>(),
    /**
     * A return (R-transaction) of a payout of Muntly's, as the statement said: the reason code
     * (AC04 …, null when the bank gave none) and its additional text. Null: an ordinary payment.
     * A return is never refunded to the IBAN it came from (the payee's bank, for a closed account).
     */
    isReturn: boolean('is_return').notNull().default(false),
    returnReason: text('return_reason'),
    returnInfo: text('return_info'),
    /** The order (buy or deposit) it paid: matched on import, or assigned by an operator. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    /** What the operator did and who: the reference assigned to, or the refund. */
    resolution: text('resolution'),
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    /** Retention: when the payer's name, IBAN and remittance were erased, 5 years after the relationship ended; the amount stays. */
    personalDataErasedAt: timestamp('personal_data_erased_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('bank_payments_entry_ref').on(t.entryRef),
    // The unmatched queue.
    index('bank_payments_open')
      .on(t.importedAt)
      .where(sql`${t.status} = 'open'`),
    // Where an order's refund goes: the payment that paid it.
    index('bank_payments_order')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null`),
    check('bank_payments_status', oneOf(t.status, BANK_PAYMENT_STATUSES)),
    check('bank_payments_amount', sql`${t.amount} > 0`),
    check('bank_payments_order_when_paid', sql`(${t.status} in ('matched', 'assigned')) = (${t.orderId} is not null)`),
  ],
);

/**
 * Payouts the payee's bank sent back (server/src/modules/bank/returns.ts): one row per returned
 * payout (the unique index: a return booked twice, from a camt.054 and a camt.053, books once),
 * with the bank's reason, the statement payment it came in, and what the customer owes no more
 * once they gave another IBAN: the new payout (`replacement_payout_id`). While it is null, or the
 * new payout failed, the money waits in the `returns` ledger account. An anonymous seller gives
 * the IBAN through an emailed link: its random nonce is in the link's signed token; a new link
 * replaces the nonce, and using the link clears it (single use).
 */
export const payoutReturns = pgTable(
  'payout_returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => payouts.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    bankPaymentId: uuid('bank_payment_id')
      .notNull()
      .references(() => bankPayments.id, { onDelete: 'restrict' }),
    /** What the customer is owed again (the returned payout's amount), EUR cents. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** What the bank credited: less than `amount` when it kept a charge, which Muntly bears. */
    amountReturned: bigint('amount_returned', { mode: 'bigint' }).notNull(),
    reasonCode: text('reason_code'),
    reasonInfo: text('reason_info'),
    replacementPayoutId: uuid('replacement_payout_id').references(() => payouts.id, { onDelete: 'restrict' }),
    /** The IBAN holder's name the customer gave with the new IBAN (the name the payee's bank checks). */
    holderName: text('holder_name'),
    linkNonce: text('link_nonce'),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    language: text('language').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_returns_payout').on(t.payoutId),
    uniqueIndex('payout_returns_bank_payment').on(t.bankPaymentId),
    index('payout_returns_order').on(t.orderId),
    check('payout_returns_amounts', sql`${t.amountReturned} > 0 and ${t.amountReturned} <= ${t.amount}`),
  ],
);

/**
 * SEPA credit transfer files (pain.001) handed to the bank: each EUR payout is in at most one
 * (payouts.bank_export_id), and the file is kept as it was downloaded, to be downloaded again.
 */
export const bankExports = pgTable(
  'bank_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The file's MsgId (at most 35 characters; banks refuse a MsgId they have seen). */
    messageId: text('message_id').notNull(),
    payoutCount: integer('payout_count').notNull(),
    /** EUR cents, the file's control sum. */
    total: bigint('total', { mode: 'bigint' }).notNull(),
    xml: text('xml').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bank_exports_message_id').on(t.messageId),
    check('bank_exports_not_empty', sql`${t.payoutCount} > 0 and ${t.total} > 0`),
  ],
);
