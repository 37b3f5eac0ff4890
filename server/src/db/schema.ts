import { sql } from 'drizzle-orm';
import { bigint, boolean, check, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The database schema, one place for PGlite and PostgreSQL. Migrations in server/migrations are
 * generated from it by drizzle-kit (`npm run db:generate`) and applied at start-up.
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
    kind: text('kind').notNull(),
    phase: text('phase').notNull().default('not_enabled'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.kind] }),
    check('verifications_kind', sql`${t.kind} in ('address', 'bank', 'business', 'id', 'mobile')`),
    check('verifications_phase', sql`${t.phase} in ('not_enabled', 'step_1', 'step_2', 'verified')`),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idp_users_email_key').on(t.email)],
);
