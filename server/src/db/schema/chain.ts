import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CHAIN_OUTPUT_STATUSES, CHAIN_UNMATCHED_REASONS, HOUSE_BRANCHES } from '#domain/chain';
import { units } from '../columns';
import { oneOf } from '../one-of';

/** The chain module's tables (server/src/modules/chain): the house's addresses, the watcher's cursor, outputs and alerts. */

/** The next derivation index per currency, handed out atomically (one row lock, no retries). */
export const addressCounters = pgTable('address_counters', {
  currency: text('currency').primaryKey(),
  nextIndex: integer('next_index').notNull(),
});

/**
 * Every address derived from a house key (chain/service.ts nextHouseAddress), with where it was
 * derived: the deposit watcher knows an output is the house's by this table alone, and the signer
 * derives the key that spends it from the branch and index (it checks the address itself).
 */
export const houseAddresses = pgTable(
  'house_addresses',
  {
    address: text('address').primaryKey(),
    currency: text('currency').notNull(),
    branch: text('branch', { enum: HOUSE_BRANCHES }).notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('house_addresses_path').on(t.currency, t.branch, t.derivationIndex),
    check('house_addresses_branch', oneOf(t.branch, HOUSE_BRANCHES)),
  ],
);

/**
 * The deposit watcher's cursor: the hash of every block it scanned, per currency (the recent ones
 * are kept). A node whose block at a stored height has another hash has reorganised: the watcher
 * walks back to the last height where both agree.
 */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    currency: text('currency').notNull(),
    height: integer('height').notNull(),
    hash: text('hash').notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.height] })],
);

/**
 * Account chains (ether, issue 31): the transactions sent from a house address that the watcher saw
 * mined, with the fee they paid and whether they failed (status 0). A payout the signer reports
 * after its block was scanned (it was killed before reporting) is confirmed, and its real fee
 * known, from here. Forgotten above a reorg's height.
 */
export const chainHouseTxs = pgTable(
  'chain_house_txs',
  {
    currency: text('currency').notNull(),
    txid: text('txid').notNull(),
    height: integer('height').notNull(),
    fee: units('fee').notNull(),
    failed: boolean('failed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.txid] })],
);

/**
 * Outputs at the house's addresses, one row per txid:vout (domain/chain.ts CHAIN_OUTPUT_STATUSES):
 * what the watcher saw, credited once, and what the signer may spend. `spent_by`: the transaction
 * that spends it (the signer's report, then the block's).
 */
export const chainOutputs = pgTable(
  'chain_outputs',
  {
    currency: text('currency').notNull(),
    txid: text('txid').notNull(),
    vout: integer('vout').notNull(),
    address: text('address').notNull(),
    amount: units('amount').notNull(),
    height: integer('height').notNull(),
    blockHash: text('block_hash').notNull(),
    status: text('status', { enum: CHAIN_OUTPUT_STATUSES }).notNull(),
    unmatchedReason: text('unmatched_reason', { enum: CHAIN_UNMATCHED_REASONS }),
    /** The order or the wallet account it was credited to (the audit trail's target). */
    creditedTo: text('credited_to'),
    spentBy: text('spent_by'),
    /** The height of the block the watcher saw spend it (null: not yet mined, or only reported by the signer). */
    spentHeight: integer('spent_height'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.currency, t.txid, t.vout] }),
    index('chain_outputs_address').on(t.address),
    index('chain_outputs_open')
      .on(t.currency, t.status)
      .where(sql`${t.status} in ('confirming', 'unmatched')`),
    index('chain_outputs_unspent')
      .on(t.currency)
      .where(sql`${t.spentBy} is null and ${t.status} in ('credited', 'change', 'unmatched', 'assigned', 'returned')`),
    check('chain_outputs_status', oneOf(t.status, CHAIN_OUTPUT_STATUSES)),
    check('chain_outputs_unmatched_reason', oneOf(t.unmatchedReason, CHAIN_UNMATCHED_REASONS)),
    check('chain_outputs_amount', sql`${t.amount} > 0`),
  ],
);

/**
 * What the chain side asks an operator to look at (the console's first page): a credited deposit
 * whose block left the chain (booked back), a reconciliation that found the chain and the ledger
 * apart, the XRP house account's settings (no lsfRequireDestTag) or a payment from it no payout
 * made (house_account). Resolved by an operator, with the audit trail.
 */
export const chainAlerts = pgTable('chain_alerts', {
  id: uuid('id').primaryKey().defaultRandom(),
  currency: text('currency').notNull(),
  kind: text('kind', { enum: ['reorg_reversal', 'reconciliation', 'house_account'] }).notNull(),
  detail: jsonb('detail').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  resolvedBy: text('resolved_by'),
});
