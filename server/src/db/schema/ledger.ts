import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { units } from '../columns';
import { accounts } from './accounts';

/** The ledger module's tables (server/src/modules/ledger): accounts and transfers. */

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
