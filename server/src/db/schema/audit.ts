import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The audit module's tables (server/src/modules/audit): the append-only audit trail. */

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
