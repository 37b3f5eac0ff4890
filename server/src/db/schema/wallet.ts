import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SEND_STATUSES } from '#domain/wallet';
import { units } from '../columns';
import { oneOf } from '../one-of';
import { accounts } from './accounts';

/** The wallet module's tables (server/src/modules/wallet): reception addresses and sends. */

/**
 * Reception addresses: derived from the currency's watch-only key at a unique index, so an
 * address is never given to two users (unique address, unique index per currency).
 */
export const receptionAddresses = pgTable(
  'reception_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    address: text('address').notNull(),
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reception_addresses_address').on(t.address),
    uniqueIndex('reception_addresses_currency_index').on(t.currency, t.derivationIndex),
    index('reception_addresses_owner').on(t.ownerId),
  ],
);

/**
 * Sends from the wallet. A send waits for its emailed code, then books its ledger transfers in
 * the same transaction that accepts the code (so a balance can never pay twice), then an external
 * send is paid out on chain (processing -> completed). The idempotency key is unique per user.
 */
export const walletSends = pgTable(
  'wallet_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
    amount: units('amount').notNull(),
    networkFee: units('network_fee').notNull(),
    /** The send's value in EUR cents when it was confirmed: what it adds to the weekly volume. */
    eurValue: bigint('eur_value', { mode: 'bigint' }),
    label: text('label'),
    /** Another Muntly user's reception address: an internal, instant, free transfer. */
    recipientId: uuid('recipient_id').references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: SEND_STATUSES }).notNull().default('awaiting_code'),
    idempotencyKey: text('idempotency_key'),
    codeHash: text('code_hash').notNull(),
    codeAttempts: integer('code_attempts').notNull().default(0),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** An external send: the chain's transaction id once its payout completed. */
    txid: text('txid'),
    /** The page language the send was started in: its emails (code, completed) are written in it. */
    language: text('language').notNull().default('en'),
  },
  (t) => [
    uniqueIndex('wallet_sends_owner_idempotency').on(t.ownerId, t.idempotencyKey),
    index('wallet_sends_status').on(t.status, t.confirmedAt),
    index('wallet_sends_owner_confirmed').on(t.ownerId, t.confirmedAt),
    check('wallet_sends_amount_positive', sql`${t.amount} > 0 and ${t.networkFee} >= 0`),
    check('wallet_sends_status', oneOf(t.status, SEND_STATUSES)),
    check('wallet_sends_attempts', sql`${t.codeAttempts} between 0 and 5`),
  ],
);
