import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { VERIFICATION_KINDS, VERIFICATION_PHASES, VERIFICATION_REJECTION_REASONS } from '#domain/verification';
import { oneOf } from '../one-of';
import { accounts } from './accounts';

/** The identity module's tables (server/src/modules/identity): verifications and their one-time codes. */

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
