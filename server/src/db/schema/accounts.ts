import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** The accounts module's table (server/src/modules/accounts): the users of the API. */

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
