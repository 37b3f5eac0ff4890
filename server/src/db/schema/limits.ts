import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The table of server/src/limits.ts (not a module's: every replica counts against it). */

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
