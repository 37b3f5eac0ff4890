import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea } from '../columns';
import { accounts } from './accounts';

/** The liabilities module's tables (server/src/modules/liabilities): the proof of liabilities. */

/**
 * Proof of liabilities (issue 20, domain/liabilities.ts). A snapshot is taken in one consistent
 * read of the ledger; per currency it keeps the root (hash and total owed, in minor units) and
 * the published tree as JSON text, exactly as served. `slot` is set by the scheduled run (the
 * number of LIABILITIES_INTERVAL_MS since the epoch): unique, so two replicas never publish the
 * same period twice. The reserves side (the house's addresses and, locally, the simulated chain's
 * balances of them) was read in the same transaction.
 */
export const liabilitySnapshots = pgTable(
  'liability_snapshots',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    slot: bigint('slot', { mode: 'number' }),
    reserves: jsonb('reserves').notNull(),
    /**
     * The proof's format (domain/liabilities.ts): muntly-liabilities-1 published every leaf and
     * every deposit address (withdrawn by migration 0035: they let an outsider link addresses to
     * balances); muntly-liabilities-2 publishes roots only (docs/proof-format.md).
     */
    format: text('format').notNull().default('muntly-liabilities-1'),
  },
  (t) => [
    uniqueIndex('liability_snapshots_slot')
      .on(t.slot)
      .where(sql`${t.slot} is not null`),
    index('liability_snapshots_taken_at').on(t.takenAt),
  ],
);

export const liabilityTrees = pgTable(
  'liability_trees',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => liabilitySnapshots.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    rootHash: text('root_hash').notNull(),
    /** The root's amount: what users held in this currency, in minor units. */
    total: numeric('total').notNull(),
    /**
     * The decimals of those minor units when the snapshot was taken: a published proof never
     * changes, so a snapshot of ether taken in gwei (before migration 0033) stays in gwei.
     */
    decimals: integer('decimals').notNull(),
    leafCount: integer('leaf_count').notNull(),
    /** Format 1 only: the published tree as JSON text (null since it was withdrawn, and in format 2, which publishes the root alone). */
    tree: text('tree'),
    /**
     * Format 2: the levels from BLOCK_LEVELS up, packed at fixed offsets (domain/liabilities.ts
     * packLevels); format 1 (withdrawn): every level. Stored uncompressed (migration 0027), so
     * PostgreSQL reads only the pieces a substring asks for.
     */
    nodes: bytea('nodes').notNull(),
    /**
     * Format 2, the server's secrets for answering paths: the real leaves packed in the order of
     * their places (domain/liabilities.ts packLeaves), where each block of 2^BLOCK_LEVELS places
     * starts in them (directory), and the seed the padding is derived from. Never published.
     */
    leaves: bytea('leaves'),
    directory: bytea('directory'),
    paddingSeed: bytea('padding_seed'),
  },
  (t) => [
    primaryKey({ columns: [t.snapshotId, t.currency] }),
    check('liability_trees_total_not_negative', sql`${t.total} >= 0`),
  ],
);

/**
 * What only the account's owner may see of a snapshot: the secret nonce their leaves commit to,
 * and where their leaves are in each currency's tree ({ "BTC": [17, 4031], … }).
 */
export const liabilityAccounts = pgTable(
  'liability_accounts',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => liabilitySnapshots.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    leaves: jsonb('leaves').$type<Record<string, number[]>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.snapshotId, t.accountId] }),
    index('liability_accounts_account').on(t.accountId, t.snapshotId),
  ],
);

/**
 * Proof of control of a house address in a snapshot's reserves: a message naming the address and
 * the snapshot's digest, signed with the address's key by the signer (BIP-322 for segwit, the
 * legacy message format for other Bitcoin-family addresses, personal_sign for ether, the XRP
 * Ledger's own signing for XRP), checked by the API before it is stored and published.
 */
export const liabilityControl = pgTable(
  'liability_control',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => liabilitySnapshots.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
    scheme: text('scheme').notNull(),
    message: text('message').notNull(),
    signature: text('signature').notNull(),
    /** XRP: the public key that signed (the account's regular key or master key). */
    publicKey: text('public_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.currency, t.address] })],
);
