import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rows } from '../../db/raw';
import { ledgerAccounts, ledgerTransfers } from '../../db/schema';
import type { Db } from '../../db/client';

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type Transfer = typeof ledgerTransfers.$inferSelect;

/** SQL for the ledger. Methods take the database or a transaction, so services compose them. */
export const ledgerRepository = {
  /** The new account, or undefined when the owner's (or the system's) account in that currency exists. */
  async insertAccount(db: Db, values: { ownerId: string; currency: string } | { systemCode: string; currency: string }): Promise<LedgerAccount | undefined> {
    const [created] = await db.insert(ledgerAccounts).values(values).onConflictDoNothing().returning();
    return created;
  },

  async findUserAccount(db: Db, ownerId: string, currency: string): Promise<LedgerAccount | undefined> {
    const [existing] = await db
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.ownerId, ownerId), eq(ledgerAccounts.currency, currency)));
    return existing;
  },

  async findSystemAccount(db: Db, systemCode: string, currency: string): Promise<LedgerAccount | undefined> {
    const [existing] = await db
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.systemCode, systemCode), eq(ledgerAccounts.currency, currency), isNull(ledgerAccounts.ownerId)));
    return existing;
  },

  /** The new transfer, or undefined when its id (the idempotency key) was already booked. */
  async insertTransfer(db: Db, values: typeof ledgerTransfers.$inferInsert): Promise<Transfer | undefined> {
    const [inserted] = await db.insert(ledgerTransfers).values(values).onConflictDoNothing().returning();
    return inserted;
  },

  /** Inserts them all (a unique violation when one exists). */
  async insertTransfers(db: Db, values: (typeof ledgerTransfers.$inferInsert)[]): Promise<void> {
    await db.insert(ledgerTransfers).values(values);
  },

  async existingTransferIds(db: Db, ids: string[]): Promise<string[]> {
    const rows = await db.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(inArray(ledgerTransfers.id, ids));
    return rows.map((row) => row.id);
  },

  async findTransfer(db: Db, id: string): Promise<Transfer | undefined> {
    const [existing] = await db.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, id));
    return existing;
  },

  /** Adds `delta` (negative for a debit) to the balance; the database refuses a user account below zero. */
  async addToBalance(db: Db, accountId: string, delta: bigint): Promise<void> {
    await db
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + ${delta.toString()}::numeric` })
      .where(eq(ledgerAccounts.id, accountId));
  },

  balancesOf(db: Db, ownerId: string): Promise<{ currency: string; balance: bigint }[]> {
    return db.select({ currency: ledgerAccounts.currency, balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, ownerId)).orderBy(asc(ledgerAccounts.currency));
  },

  /** Every user account's balance above zero (what the proof of liabilities commits to). */
  async allUserBalances(db: Db): Promise<{ ownerId: string; currency: string; balance: bigint }[]> {
    // Raw rows, in no order, only those above zero: for a million balances the ORM's row mapping
    // and a sort cost more than the read (bench:liabilities).
    const found = await rows<{ owner_id: string; currency: string; balance: string }>(
      db,
      sql`select ${ledgerAccounts.ownerId} as owner_id, ${ledgerAccounts.currency} as currency, ${ledgerAccounts.balance}::text as balance from ${ledgerAccounts} where ${ledgerAccounts.ownerId} is not null and ${ledgerAccounts.balance} > 0`,
    );
    return found.map((r) => ({ ownerId: r.owner_id, currency: r.currency, balance: BigInt(r.balance) }));
  },

  /** Per currency, what all users hold together (the sum of user balances). */
  userTotals(db: Db): Promise<{ currency: string; total: string }[]> {
    return db
      .select({ currency: ledgerAccounts.currency, total: sql<string>`sum(${ledgerAccounts.balance})::text` })
      .from(ledgerAccounts)
      .where(isNotNull(ledgerAccounts.ownerId))
      .groupBy(ledgerAccounts.currency)
      .orderBy(asc(ledgerAccounts.currency));
  },

  accountsById(db: Db, ids: string[]): Promise<LedgerAccount[]> {
    return db.select().from(ledgerAccounts).where(inArray(ledgerAccounts.id, ids));
  },

  /** The currencies whose balances do not sum to zero, with the sum. */
  unbalancedCurrencies(db: Db): Promise<{ currency: string; total: string }[]> {
    return db
      .select({ currency: ledgerAccounts.currency, total: sql<string>`sum(${ledgerAccounts.balance})::text` })
      .from(ledgerAccounts)
      .groupBy(ledgerAccounts.currency)
      .having(sql`sum(${ledgerAccounts.balance}) <> 0`);
  },

  /** The accounts whose balance is not their credits minus their debits, with both. */
  balanceDrift(db: Db): Promise<{ id: string; balance: string; booked: string }[]> {
    // Drizzle names a subquery's computed columns without the subquery's alias: each gets its own name.
    const total = (side: typeof ledgerTransfers.debitAccountId | typeof ledgerTransfers.creditAccountId, name: 'credited' | 'debited') =>
      db
        .select({ id: sql<string>`${side}`.as(`${name}_account`), total: sql<string>`sum(${ledgerTransfers.amount})`.as(`${name}_total`) })
        .from(ledgerTransfers)
        .groupBy(side)
        .as(name);
    const credits = total(ledgerTransfers.creditAccountId, 'credited');
    const debits = total(ledgerTransfers.debitAccountId, 'debited');
    const booked = sql<string>`coalesce(${credits.total}, 0) - coalesce(${debits.total}, 0)`;
    return db
      .select({ id: ledgerAccounts.id, balance: sql<string>`${ledgerAccounts.balance}::text`, booked: sql<string>`(${booked})::text` })
      .from(ledgerAccounts)
      .leftJoin(credits, eq(credits.id, ledgerAccounts.id))
      .leftJoin(debits, eq(debits.id, ledgerAccounts.id))
      .where(sql`${ledgerAccounts.balance} <> ${booked}`);
  },

  negativeUserAccounts(db: Db): Promise<{ id: string; balance: string }[]> {
    return db
      .select({ id: ledgerAccounts.id, balance: sql<string>`${ledgerAccounts.balance}::text` })
      .from(ledgerAccounts)
      .where(and(isNotNull(ledgerAccounts.ownerId), lt(ledgerAccounts.balance, 0n)));
  },

  /** Transfers that are not positive, cross currencies, or go from an account to itself. */
  malformedTransfers(db: Db): Promise<{ id: string }[]> {
    const debit = alias(ledgerAccounts, 'debit');
    const credit = alias(ledgerAccounts, 'credit');
    return db
      .select({ id: ledgerTransfers.id })
      .from(ledgerTransfers)
      .innerJoin(debit, eq(debit.id, ledgerTransfers.debitAccountId))
      .innerJoin(credit, eq(credit.id, ledgerTransfers.creditAccountId))
      .where(
        or(
          lte(ledgerTransfers.amount, 0n),
          ne(debit.currency, ledgerTransfers.currency),
          ne(credit.currency, ledgerTransfers.currency),
          eq(ledgerTransfers.debitAccountId, ledgerTransfers.creditAccountId),
        ),
      );
  },
};
