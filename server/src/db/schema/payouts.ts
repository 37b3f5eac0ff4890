import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PAYOUT_APPROVAL_REASONS, PAYOUT_PURPOSES, PAYOUT_RAILS, PAYOUT_STATUSES } from '#domain/payouts';
import { units } from '../columns';
import { oneOf } from '../one-of';
// The bank's tables name payouts too: see schema/bank.ts.
// eslint-disable-next-line import-x/no-cycle
import { bankExports, bankPayments } from './bank';
import { ledgerAccounts } from './ledger';
import { orders } from './orders';
import { walletSends } from './wallet';

/** The payouts module's table (server/src/modules/payouts). */

/**
 * Payouts (domain/payouts.ts): the booking transaction writes the row and moves the money into
 * the payouts clearing account; a worker takes the row (SKIP LOCKED, with a lease in
 * locked_until), calls the adapter outside any transaction, and books the result in a second
 * transaction. The idempotency key goes to the adapter, so a payout retried after a crash is paid
 * once. Exactly one of send_id / order_id / bank_payment_id says what it is for. A SEPA payout
 * exported in a pain.001 file names it in bank_export_id (never in two).
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    rail: text('rail', { enum: PAYOUT_RAILS }).notNull(),
    purpose: text('purpose', { enum: PAYOUT_PURPOSES }).notNull(),
    sendId: uuid('send_id').references(() => walletSends.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    /** The address (XRP: address:tag) or IBAN; null: back to the account a bank payment came from. */
    destination: text('destination'),
    /** SEPA: the payment reason the recipient sees. */
    reference: text('reference'),
    /** What the recipient gets, and the network fee paid on top, in minor units; both held in clearing. */
    amount: units('amount').notNull(),
    networkFee: units('network_fee')
      .notNull()
      .default(sql`0`),
    /** The ledger account the held money came from and goes back to if the payout fails. */
    sourceAccountId: uuid('source_account_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('pending'),
    /** Times a worker took it; with locked_until, the lease (or the back-off after an outage). */
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    txid: text('txid'),
    /**
     * Chain payouts paid by the signer (issue 30): every txid the payout's transaction ever had
     * (a replacement by fee adds one; `txid` is the latest), the fee its share of the transaction
     * paid, and the height of the block that holds it (null: not in a block yet).
     */
    txids: text('txids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    chainFee: units('chain_fee'),
    confirmedHeight: integer('confirmed_height'),
    /** HMAC of the instruction under the key only the API and the signer hold: a row written into the database alone cannot make the signer pay. */
    instructionMac: text('instruction_mac'),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** A bank payment nobody claimed, refunded to its payer (purpose payment_refund). */
    bankPaymentId: uuid('bank_payment_id').references(() => bankPayments.id, { onDelete: 'restrict' }),
    /** A chain output nobody claimed (currency:txid:vout), sent back to its sender (purpose chain_return). */
    chainOutput: text('chain_output'),
    /** The pain.001 file this SEPA payout went to the bank in; null: not exported yet. */
    bankExportId: uuid('bank_export_id').references(() => bankExports.id, { onDelete: 'restrict' }),
    /** What `amount` was worth in EUR cents when the payout was requested (null: before 0025, or no rate). */
    eurValue: bigint('eur_value', { mode: 'bigint' }),
    /**
     * Four eyes (domain/payouts.ts): why it waits for approval (null: it never did); the operator
     * whose action created it (null: the customer did); the first operator's approval (the review)
     * and the second's, which made it pending; or the operator who rejected it (its reason in
     * failure_reason). Operators are the ops token's issuer and subject.
     */
    approvalReason: text('approval_reason', { enum: PAYOUT_APPROVAL_REASONS }),
    triggeredBy: text('triggered_by'),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    approvedBy: text('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    rejectedBy: text('rejected_by'),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    /** Retention: when a bank payout's IBAN (`destination`) was erased, 5 years after the relationship ended. */
    personalDataErasedAt: timestamp('personal_data_erased_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payouts_idempotency_key').on(t.idempotencyKey),
    index('payouts_bank_export')
      .on(t.bankExportId)
      .where(sql`${t.bankExportId} is not null`),
    index('payouts_send')
      .on(t.sendId)
      .where(sql`${t.sendId} is not null`),
    index('payouts_order')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null`),
    // The worker's queue, the executor's list and the approval queue: only payouts not yet final.
    index('payouts_open')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('awaiting_approval', 'pending', 'submitting', 'submitted', 'broadcast')`),
    foreignKey({
      columns: [t.sourceAccountId, t.currency],
      foreignColumns: [ledgerAccounts.id, ledgerAccounts.currency],
      name: 'payouts_source_account_fk',
    }),
    check('payouts_status', oneOf(t.status, PAYOUT_STATUSES)),
    check('payouts_rail', oneOf(t.rail, PAYOUT_RAILS)),
    check('payouts_purpose', oneOf(t.purpose, PAYOUT_PURPOSES)),
    check(
      'payouts_for_one_thing',
      sql`num_nonnulls(${t.sendId}, ${t.orderId}, ${t.bankPaymentId}, ${t.chainOutput}) = 1`,
    ),
    check('payouts_amounts', sql`${t.amount} > 0 and ${t.networkFee} >= 0`),
    check('payouts_completed_has_txid', sql`${t.status} <> 'completed' or ${t.txid} is not null`),
    check('payouts_approval_reason', oneOf(t.approvalReason, PAYOUT_APPROVAL_REASONS)),
    check('payouts_awaiting_has_reason', sql`${t.status} <> 'awaiting_approval' or ${t.approvalReason} is not null`),
    // Four eyes, held by the database too: the reviewer and the approver are two operators, and
    // neither is the one who triggered the payout; an approval follows a review.
    check(
      'payouts_four_eyes',
      sql`(${t.reviewedBy} is null or ${t.triggeredBy} is null or ${t.reviewedBy} <> ${t.triggeredBy}) and (${t.approvedBy} is null or (${t.reviewedBy} is not null and ${t.approvedBy} <> ${t.reviewedBy} and (${t.triggeredBy} is null or ${t.approvedBy} <> ${t.triggeredBy})))`,
    ),
  ],
);
