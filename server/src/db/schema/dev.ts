import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { units } from '../columns';

/** Local mode only (server/src/dev/): the local identity provider's users and the simulated chain. No module reads them. */

/** Users of the local identity provider (local mode only; Auth0 keeps them in production). */
export const idpUsers = pgTable(
  'idp_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** The base32 secret of the user's one-time passwords (RFC 6238); asked at login once confirmed. */
    totpSecret: text('totp_secret'),
    totpConfirmedAt: timestamp('totp_confirmed_at', { withTimezone: true }),
    /** The last time step a code was accepted for: a code works once, even within its 30 seconds. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /**
     * Wrong one-time passwords (and attempts refused while throttled) since otp_failed_since, for
     * the account however many logins or clients they came from (issue 34): kept here, where every
     * replica sees them.
     */
    otpFailures: integer('otp_failures').notNull().default(0),
    otpFailedSince: timestamp('otp_failed_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idp_users_email_key').on(t.email)],
);

/**
 * The simulated chain (local mode only, server/src/dev/simulated-chain.ts): its blocks, each
 * hash = SHA-256(previous hash ‖ height ‖ nonce), mined when a block after the tip is asked for
 * (the faucet's draw mixes in the first block after registrations close), and what moved on it to
 * and from the house's addresses (simulated deposits in, simulated payouts out).
 */
export const simulatedChainBlocks = pgTable('simulated_chain_blocks', {
  height: integer('height').primaryKey(),
  hash: text('hash').notNull(),
  prevHash: text('prev_hash').notNull(),
  nonce: text('nonce').notNull(),
  minedAt: timestamp('mined_at', { withTimezone: true }).notNull().defaultNow(),
});

export const simulatedChainMoves = pgTable(
  'simulated_chain_moves',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The transaction (and, for a payout spending from several addresses, which part of it). */
    txid: text('txid').notNull(),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
    /** Positive: arrived at the address; negative: spent from it. Minor units. */
    amount: units('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('simulated_chain_moves_txid_address').on(t.txid, t.address),
    index('simulated_chain_moves_address').on(t.currency, t.address),
  ],
);
