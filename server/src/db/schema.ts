import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BANK_PAYMENT_STATUSES } from '#domain/bank';
import { CHAIN_OUTPUT_STATUSES, CHAIN_UNMATCHED_REASONS, HOUSE_BRANCHES } from '#domain/chain';
import { FAUCET_STATES, GAME_OVER_REASONS } from '#domain/faucet';
import { MAIL_TEMPLATES, MESSAGE_CHANNELS } from '#domain/messages';
import { FAILURE_REASONS, ORDER_STATUSES, ORDER_TYPES, REFUNDS } from '#domain/orders';
import { PAYOUT_APPROVAL_REASONS, PAYOUT_PURPOSES, PAYOUT_RAILS, PAYOUT_STATUSES } from '#domain/payouts';
import { SECURITY_EVENT_KINDS, SECURITY_LINK_PURPOSES } from '#domain/protection';
import { VERIFICATION_KINDS, VERIFICATION_PHASES, VERIFICATION_REJECTION_REASONS } from '#domain/verification';
import { SEND_STATUSES } from '#domain/wallet';
import { oneOf } from './one-of';

/**
 * An amount of crypto (or of any currency a column may hold) in minor units: numeric(38, 0), read
 * and written as a bigint. int8 stops at 9.2 × 10^18, which in wei (ether's 18 decimals, issue 31)
 * is 9.2 ETH; 38 digits hold 10^20 ETH and every other listed currency's supply in its minor unit.
 * EUR-only columns (cents: limits, EUR values, bank payments) stay int8.
 */
const units = customType<{ data: bigint; driverData: string }>({
  dataType: () => 'numeric(38, 0)',
  toDriver: (value) => value.toString(),
  fromDriver: (value) => BigInt(value),
});

/**
 * The database schema, one place for PGlite and PostgreSQL. Migrations in server/migrations are
 * generated from it by drizzle-kit (`npm run db:generate`) and applied at start-up. Every enum
 * column takes its values from one list in domain/ (its type, and its check constraint via oneOf).
 */

/** A user of the API, keyed by the token's issuer and subject. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    /** Short, unambiguous key used in deposit references (DEPOSIT + key). */
    accountKey: text('account_key').notNull(),
    email: text('email'),
    displayName: text('display_name'),
    depositLimitEurMinor: bigint('deposit_limit_eur_minor', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_issuer_subject_key').on(t.issuer, t.subject),
    uniqueIndex('accounts_account_key_key').on(t.accountKey),
    // Every email looks up the anti-phishing phrase of its recipient by address.
    index('accounts_email').on(t.email),
    check('accounts_deposit_limit_positive', sql`${t.depositLimitEurMinor} >= 0`),
  ],
);

/** One row per account and verification kind; every account starts with all five not enabled. */
export const verifications = pgTable(
  'verifications',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: VERIFICATION_KINDS }).notNull(),
    phase: text('phase', { enum: VERIFICATION_PHASES }).notNull().default('not_enabled'),
    /** Step 1 data as the user entered it (validated, normalized). Personal data: owner and operators only. */
    data: jsonb('data'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** AML: kept at least until this date (5 years after the last change), then deleted. */
    retainUntil: timestamp('retain_until', { withTimezone: true }),
    /** When the retention job deleted `data` (its retention date had passed). */
    dataDeletedAt: timestamp('data_deleted_at', { withTimezone: true }),
    /** When the user asked for this kind to be enabled (one click on the site); the operator enables it. */
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    /** The page language of that request: the email saying the kind is enabled is written in it. */
    requestLanguage: text('request_language'),
    /** The page language step 1 was submitted in: a rejection's email is written in it. */
    submitLanguage: text('submit_language'),
    /**
     * An operator sent the submitted details back to step 1, and why (domain/verification.ts):
     * shown to the customer until they submit again. Who did it is in the audit trail.
     */
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason', { enum: VERIFICATION_REJECTION_REASONS }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.kind] }),
    check('verifications_kind', oneOf(t.kind, VERIFICATION_KINDS)),
    check('verifications_phase', oneOf(t.phase, VERIFICATION_PHASES)),
    check(
      'verifications_rejection_reason',
      sql`${t.rejectionReason} is null or ${oneOf(t.rejectionReason, VERIFICATION_REJECTION_REASONS)}`,
    ),
    check('verifications_rejection_dated', sql`(${t.rejectionReason} is null) = (${t.rejectedAt} is null)`),
  ],
);

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
 * One-time codes for step 2. Only a hash is stored. Invariants: at most one live code per account
 * and kind (issuing a new one kills the old); a code is used once; it dies after 5 wrong tries.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: VERIFICATION_KINDS }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verification_codes_account_kind').on(t.accountId, t.kind),
    check('verification_codes_attempts', sql`${t.attempts} >= 0 and ${t.attempts} <= 5`),
  ],
);

/** Every message the product sends (email, SMS, letter, bank transfer reason), as sent. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: MESSAGE_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    /** Null while an email kept as a template (`template`, `params`) is not written yet (notify/outbox-writer.ts). */
    subject: text('subject'),
    body: text('body'),
    /** Emails: the HTML part sent beside the text `body` (made from it); null for other channels and older emails. */
    html: text('html'),
    /**
     * An email written after its transaction (notify/outbox-writer.ts): which one, and what it is
     * written from. A placement stores these few hundred bytes instead of the email's ten
     * thousand; the writer fills in subject, body and html and clears `params`.
     */
    template: text('template', { enum: MAIL_TEMPLATES }),
    params: jsonb('params'),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** With SMTP_URL: when the mail relay handed the email to the SMTP server; failed tries. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /**
     * Deleted by the retention job after this date (support messages: 2 years). Null: kept with
     * the records of the account or order it belongs to (AML, at least 5 years).
     */
    retainUntil: timestamp('retain_until', { withTimezone: true }),
  },
  (t) => [
    index('outbox_recipient').on(t.recipient),
    index('outbox_unsent').on(t.channel, t.sentAt, t.createdAt),
    // Only messages with a retention date (support, verification codes), not every order email.
    index('outbox_retain_until')
      .on(t.retainUntil)
      .where(sql`${t.retainUntil} is not null`),
    check('outbox_channel', oneOf(t.channel, MESSAGE_CHANNELS)),
    check('outbox_template', sql`${t.template} is null or ${oneOf(t.template, MAIL_TEMPLATES)}`),
    // A message is written, or kept as a template until it is.
    check(
      'outbox_written',
      sql`(${t.subject} is not null and ${t.body} is not null) or (${t.template} is not null and ${t.params} is not null)`,
    ),
    // The emails still to write: few at any moment, however large the outbox grows.
    index('outbox_unwritten')
      .on(t.createdAt)
      .where(sql`${t.body} is null`),
  ],
);

/**
 * The audit trail (domain/audit.ts, server/src/modules/audit): operator actions and reads of
 * personal data, append-only. Invariants, enforced here rather than only in code:
 * - rows are never changed or removed (triggers refuse UPDATE, DELETE and TRUNCATE);
 * - rows form one chain: `hash` is SHA-256 over the row and `prev_hash`, the hash of the row
 *   before, so an edit behind the triggers' back shows in `audit:verify`; no two rows name the
 *   same previous row (a fork) and only the first has none (unique indexes);
 * - `id` counts 1, 2, 3 … without gaps: it is taken from `audit_head` under that row's lock,
 *   which also serialises writers, so concurrent actions chain one after the other.
 * `at` is the database clock to the millisecond (what the hash covers).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    /** Who: an operator's token subject, a job ('retention'), or a customer (account:<accountKey>). */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    /** What it was done to: an account key, an order reference, a payout id … */
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
    prevHash: text('prev_hash'),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_log_prev_hash').on(t.prevHash),
    uniqueIndex('audit_log_one_first')
      .on(sql`(true)`)
      .where(sql`prev_hash is null`),
    index('audit_log_target').on(t.target, t.id),
    index('audit_log_actor').on(t.actor, t.id),
    index('audit_log_action').on(t.action, t.id),
    index('audit_log_at').on(t.at),
    check('audit_log_hash_hex', sql`${t.hash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** The chain's last row (id 1 only): locked by every writer, so rows are chained one at a time. */
export const auditHead = pgTable(
  'audit_head',
  {
    id: integer('id').primaryKey(),
    lastId: bigint('last_id', { mode: 'number' }).notNull(),
    lastHash: text('last_hash'),
  },
  (t) => [check('audit_head_singleton', sql`${t.id} = 1`)],
);

/**
 * The ledger (TigerBeetle's vocabulary). An account holds a balance in one currency (the ledger);
 * a transfer moves a positive amount from a debit account to a credit account of that currency.
 * Invariants, enforced here rather than only in code:
 * - a transfer's accounts are of the transfer's currency (composite foreign keys), so per currency
 *   all balances sum to zero;
 * - a user account never goes below zero (check constraint, evaluated under the row lock of the
 *   UPDATE, so concurrent transfers cannot overdraw);
 * - transfers are immutable and their id is the idempotency key (primary key).
 * System accounts (bank, chain, fees, faucet, exchange) stand for the outside world and may go
 * negative.
 *
 * Sub-accounts (issue 36): a transfer that finds an account's row locked by another transaction
 * books on one of its sub-accounts instead of waiting (ledger_move, migration 0043), so the house
 * accounts every order and send books against are no single hot row. A sub-account is a row with
 * `parent_id` (the account transfers name) and `shard` > 0, the owner or system code and the
 * currency of its parent; the account's balance is the sum of its rows. A user account's row and
 * sub-accounts each stay at or above zero (so does their sum): a debit takes from the account's
 * own row, which first gathers its sub-accounts when it alone does not cover the amount.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    currency: text('currency').notNull(),
    /** The user's account, or null for a system account. */
    ownerId: uuid('owner_id').references(() => accounts.id, { onDelete: 'restrict' }),
    /** For system accounts: what it stands for (bank, chain, fees, faucet, exchange). */
    systemCode: text('system_code'),
    balance: units('balance')
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** A sub-account: the account it is part of (null: an account transfers name). */
    parentId: uuid('parent_id'),
    /** 0 for an account, 1… for its sub-accounts. */
    shard: integer('shard').notNull().default(0),
  },
  (t) => [
    unique('ledger_accounts_id_currency').on(t.id, t.currency),
    uniqueIndex('ledger_accounts_owner_currency')
      .on(t.ownerId, t.currency)
      .where(sql`${t.parentId} is null`),
    uniqueIndex('ledger_accounts_system_currency')
      .on(t.systemCode, t.currency)
      .where(sql`${t.parentId} is null`),
    uniqueIndex('ledger_accounts_parent_shard')
      .on(t.parentId, t.shard)
      .where(sql`${t.parentId} is not null`),
    foreignKey({
      columns: [t.parentId, t.currency],
      foreignColumns: [t.id, t.currency],
      name: 'ledger_accounts_parent_fk',
    }),
    check('ledger_accounts_owner_or_system', sql`(${t.ownerId} is null) <> (${t.systemCode} is null)`),
    check('ledger_accounts_user_not_negative', sql`${t.ownerId} is null or ${t.balance} >= 0`),
    check('ledger_accounts_shard', sql`(${t.parentId} is null) = (${t.shard} = 0)`),
  ],
);

export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    /** Chosen by the caller: the same id twice is the same transfer (idempotency). */
    id: text('id').primaryKey(),
    currency: text('currency').notNull(),
    debitAccountId: uuid('debit_account_id').notNull(),
    creditAccountId: uuid('credit_account_id').notNull(),
    amount: units('amount').notNull(),
    /** Why: deposit, send, internal, fee, order, faucet, … */
    code: text('code').notNull(),
    metadata: jsonb('metadata'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_transfers_amount_positive', sql`${t.amount} > 0`),
    check('ledger_transfers_distinct_accounts', sql`${t.debitAccountId} <> ${t.creditAccountId}`),
    foreignKey({
      columns: [t.debitAccountId, t.currency],
      foreignColumns: [ledgerAccounts.id, ledgerAccounts.currency],
      name: 'ledger_transfers_debit_fk',
    }),
    foreignKey({
      columns: [t.creditAccountId, t.currency],
      foreignColumns: [ledgerAccounts.id, ledgerAccounts.currency],
      name: 'ledger_transfers_credit_fk',
    }),
    index('ledger_transfers_debit').on(t.debitAccountId, t.createdAt),
    index('ledger_transfers_credit').on(t.creditAccountId, t.createdAt),
  ],
);

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
 * Outputs at the house's addresses, one row per txid:vout (domain/chain.ts CHAIN_OUTPUT_STATUSES):
 * what the watcher saw, credited once, and what the signer may spend. `spent_by`: the transaction
 * that spends it (the signer's report, then the block's).
 */
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

/**
 * Exchange orders. The reference (ABCD-EFGH-IJKL-MNOP, ~75 bits) with the email is what an
 * anonymous customer uses to look the order up; its first two groups are the bank payment reason.
 *
 * Money at rest is one representation, as in the ledger: every amount and fee is a bigint in the
 * minor unit of its currency (`decimalsOf` in domain/currencies.ts: BTC satoshis, ETH wei, EUR
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

/**
 * The faucet (issue 7). One state row (id 1): the operator's pause switch and the budget left in
 * EUR cents; it is locked FOR UPDATE by every tick, so round transitions are serialized even if
 * two tickers ever ran at once. The budget only shrinks by a paid reward in the same transaction
 * as the ledger credit, and never below zero.
 */
export const faucetState = pgTable(
  'faucet_state',
  {
    id: integer('id').primaryKey(),
    paused: boolean('paused').notNull().default(false),
    budgetEurMinor: bigint('budget_eur_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('faucet_state_singleton', sql`${t.id} = 1`),
    check('faucet_state_budget_not_negative', sql`${t.budgetEurMinor} >= 0`),
  ],
);

/**
 * Seed chains (issue 20, domain/faucet.ts): a secret top seed seed_N, hashed down to the anchor
 * seed_0 = SHA-256^N(seed_N), which is public from the moment the row exists, before the chain's
 * first round. Rounds take the chain's seeds in order, seed_1 first (`next_index`); only the top
 * seed is stored, every other seed is hashed down from it when its round starts. The next chain is
 * created when a round takes the last seed of the current one, so its anchor is public a round
 * ahead.
 */
export const faucetSeedChains = pgTable(
  'faucet_seed_chains',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    anchor: text('anchor').notNull(),
    length: integer('length').notNull(),
    /** seed_N: secret; never sent anywhere (each round reveals its own seed with its winner). */
    topSeed: text('top_seed').notNull(),
    nextIndex: integer('next_index').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('faucet_seed_chains_length', sql`${t.length} > 0`),
    check('faucet_seed_chains_next_index', sql`${t.nextIndex} between 1 and ${t.length} + 1`),
  ],
);

/**
 * Rounds: new -> registrations_open -> registrations_closed -> winner_announced, or a game_over
 * row while the faucet is paused or out of budget. The schedule is stored, so the state follows
 * the database clock and a restarted ticker catches up. At most one round is current
 * (finished_at null), enforced by a unique partial index. The seed stays secret (never sent)
 * until the winner is announced; seed_hash is public from the start.
 */
export const faucetRounds = pgTable(
  'faucet_rounds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    state: text('state', { enum: FAUCET_STATES }).notNull(),
    gameOverReason: text('game_over_reason', { enum: GAME_OVER_REASONS }),
    seed: text('seed'),
    seedHash: text('seed_hash'),
    rewardEurMinor: bigint('reward_eur_minor', { mode: 'bigint' }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    drawsAt: timestamp('draws_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    entryCount: integer('entry_count'),
    entriesHash: text('entries_hash'),
    winnerEntryId: uuid('winner_entry_id'),
    rewardCurrency: text('reward_currency'),
    rewardAmount: units('reward_amount'),
    rewardRate: text('reward_rate'),
    announcedAt: timestamp('announced_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Where the seed comes from: the chain and the seed's index in it (null for rounds from before seed chains). */
    seedChainId: integer('seed_chain_id').references(() => faucetSeedChains.id, { onDelete: 'restrict' }),
    seedIndex: integer('seed_index'),
    /** The block mixed into the draw: its source (the Chain adapter's name) and height, set when registrations close; its hash, set by the draw. */
    mixSource: text('mix_source'),
    mixHeight: integer('mix_height'),
    mixHash: text('mix_hash'),
  },
  (t) => [
    uniqueIndex('faucet_rounds_seed')
      .on(t.seedChainId, t.seedIndex)
      .where(sql`${t.seedChainId} is not null`),
    check('faucet_rounds_seed_in_chain', sql`(${t.seedChainId} is null) = (${t.seedIndex} is null)`),
    uniqueIndex('faucet_rounds_one_current')
      .on(sql`(true)`)
      .where(sql`finished_at is null`),
    check('faucet_rounds_state', oneOf(t.state, FAUCET_STATES)),
    check('faucet_rounds_game_over_reason', sql`(${t.state} = 'game_over') = (${t.gameOverReason} is not null)`),
    check(
      'faucet_rounds_scheduled',
      sql`${t.state} = 'game_over' or (${t.seedHash} is not null and ${t.seed} is not null and ${t.endsAt} is not null)`,
    ),
  ],
);

/**
 * Entries: one per account per round (unique index: a second request, even a racing one, gets
 * 409), each for one of the player's own reception addresses. The ticket is SHA-256 of
 * "<roundId>:<address>:<salt>" (domain/faucet.ts; entries from before 0035: without the salt) and is what the draw and the public list use.
 */
export const faucetEntries = pgTable(
  'faucet_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roundId: integer('round_id')
      .notNull()
      .references(() => faucetRounds.id, { onDelete: 'restrict' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    addressId: uuid('address_id')
      .notNull()
      .references(() => receptionAddresses.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
    ticket: text('ticket').notNull(),
    /**
     * The entry's secret salt (16 bytes of hex), shown only to its player: the ticket commits to it
     * (domain/faucet.ts ticketOf), so a masked address and its public ticket cannot be matched
     * against a list of candidate addresses. Null for entries from before migration 0035.
     */
    salt: text('salt'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('faucet_entries_round_account').on(t.roundId, t.accountId),
    uniqueIndex('faucet_entries_round_ticket').on(t.roundId, t.ticket),
    index('faucet_entries_account').on(t.accountId, t.createdAt),
  ],
);

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

/** Raw bytes (PostgreSQL bytea): node-postgres reads a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

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

/**
 * Account protection (issue 19), one row per account, created with the account's first protected
 * action. Every confirmation of a send reads it under a row lock in the transaction that moves the
 * money, and every change (a freeze by link, an unfreeze, a setting) updates it under that lock:
 * a freeze and a confirmation are ordered, never interleaved.
 * - allow_list_only: sends go only to address-book entries whose hold has passed. On for new
 *   accounts (the column default); migration 0026 turned it off for the accounts that existed.
 * - allow_list_since: when the mode was last switched on (or the row made); it may be switched off
 *   once the address hold has passed since then.
 * - sends_paused_until: a cool-down after a change an attacker would make first (the
 *   anti-phishing phrase, the mode, the email address).
 * - frozen_at / unfreezes_at: frozen while frozen_at is set and unfreezes_at is null or ahead;
 *   frozen_by_operator: an operator froze it, and only an operator unfreezes it.
 */
export const accountProtection = pgTable('account_protection', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  allowListOnly: boolean('allow_list_only').notNull().default(true),
  allowListSince: timestamp('allow_list_since', { withTimezone: true }).notNull().defaultNow(),
  sendsPausedUntil: timestamp('sends_paused_until', { withTimezone: true }),
  frozenAt: timestamp('frozen_at', { withTimezone: true }),
  /** Frozen by an operator (POST /api/ops/accounts/:accountKey/freeze): only an operator lifts it, the user's unfreeze is refused. */
  frozenByOperator: boolean('frozen_by_operator').notNull().default(false),
  unfreezesAt: timestamp('unfreezes_at', { withTimezone: true }),
  /** The emailed code that confirms an unfreeze (one-time-codes.ts): its hash, wrong attempts, expiry. */
  unfreezeCodeHash: text('unfreeze_code_hash'),
  unfreezeCodeAttempts: integer('unfreeze_code_attempts').notNull().default(0),
  unfreezeCodeExpiresAt: timestamp('unfreeze_code_expires_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The anti-phishing phrase of an account (issue 19; NFC, domain/protection.ts checkPhrase): every
 * email to the account's address shows it at its top. The messages' own (notify writes every
 * email); protection sets it, under its cool-down rule.
 */
export const antiPhishingPhrases = pgTable('anti_phishing_phrases', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  phrase: text('phrase').notNull(),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The address book: where the account's sends may go. The address is canonical
 * (domain/addresses.ts normalizeAddress; XRP address:tag), so every spelling of one address is one
 * entry: at most one live (not cancelled) entry per account, currency and address. An entry is
 * usable from usable_from (created + ADDRESS_HOLD_HOURS); another Muntly user's address is usable
 * at once.
 */
export const addressBook = pgTable(
  'address_book',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
    label: text('label'),
    /** The user's own wallet (true) or someone else's: the EU transfer-of-funds rule asks for it above 1,000 EUR to self-hosted wallets. */
    ownWallet: boolean('own_wallet').notNull(),
    /** Another Muntly user's reception address when added: exempt from the hold. */
    internal: boolean('internal').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usableFrom: timestamp('usable_from', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('address_book_live_entry')
      .on(t.accountId, t.currency, t.address)
      .where(sql`${t.cancelledAt} is null`),
    index('address_book_account').on(t.accountId, t.createdAt),
  ],
);

/**
 * Links in security emails (freeze the sends; cancel a new address-book entry). The link carries
 * the row's id and an HMAC of it under SECURITY_LINK_SECRET; the row makes it single use
 * (used_at) and lets it expire.
 */
export const securityLinks = pgTable(
  'security_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: SECURITY_LINK_PURPOSES }).notNull(),
    entryId: uuid('entry_id').references(() => addressBook.id, { onDelete: 'cascade' }),
    /** The email's language: the page the link opens is written in it. */
    language: text('language').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('security_links_purpose', oneOf(t.purpose, SECURITY_LINK_PURPOSES)),
    check('security_links_cancel_has_entry', sql`(${t.purpose} = 'cancel_address') = (${t.entryId} is not null)`),
    index('security_links_expires').on(t.expiresAt),
  ],
);

/**
 * The devices (browsers) a login of the identity provider came from (issue 19: "sign-in from a new
 * device"), by the provider's subject, so that a login is remembered even before the account's
 * first request creates its row. The device key is the provider's long-lived random cookie (an
 * Auth0 Action's session id in production); only its SHA-256 is kept. No IP address.
 */
export const signInDevices = pgTable(
  'sign_in_devices',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    deviceHash: text('device_hash').notNull(),
    /** The browser and system of the first login from it ("Firefox on Linux"). */
    client: text('client').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject, t.deviceHash] })],
);

/** What happened to an account's protection, for the user's security page: what, when, from which client. */
export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SECURITY_EVENT_KINDS }).notNull(),
    /** Who acted: the site (with its browser), an email link, the operator. Never an IP address. */
    client: text('client').notNull(),
    /** What it was about: currency, address, label (no secrets, never the phrase). */
    detail: jsonb('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('security_events_kind', oneOf(t.kind, SECURITY_EVENT_KINDS)),
    index('security_events_account').on(t.accountId, t.createdAt),
  ],
);

/**
 * The counters of the limits that protect a person (orders and lookups per email, support messages
 * per sender, verification requests and fee questions per account, security links per link), kept
 * here so that every API replica counts against the same number (server/src/limits.ts). The key is
 * a hash of the limit's name and its subject: no email or account id is stored.
 */
export const limitCounters = pgTable(
  'limit_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('limit_counters_window_ends').on(t.windowEndsAt)],
);
