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
import { SECURITY_EVENT_KINDS, SECURITY_LINK_PURPOSES } from '#domain/protection';
import { oneOf } from '../one-of';
import { accounts } from './accounts';

/** The protection module's tables (server/src/modules/protection): account protection. */

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
