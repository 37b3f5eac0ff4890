import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rows } from '../../db/raw';
import { ledgerAccounts, ledgerTransfers } from '../../db/schema/ledger';
import type { Db } from '../../db/client';

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type Transfer = typeof ledgerTransfers.$inferSelect;

/** An account as transfers name it (not a sub-account), its balance the sum of its row and its sub-accounts (migration 0043). */
const accountColumns = {
  ...getTableColumns(ledgerAccounts),
  // The outer row named by its table, the sub-accounts by their alias (drizzle writes columns unqualified).
  balance: sql<string>`(${ledgerAccounts}.balance + coalesce((select sum(sub.balance) from ${ledgerAccounts} sub where sub.parent_id = ${ledgerAccounts}.id), 0))::text`,
};
const accountOf = (row: Omit<LedgerAccount, 'balance'> & { balance: string }): LedgerAccount => ({
  ...row,
  balance: BigInt(row.balance),
});
/** Rows grouped by the account they belong to: an account's own row and its sub-accounts. */
const accountIdOf = sql`coalesce(${ledgerAccounts.parentId}, ${ledgerAccounts.id})`;

type TransferRow = {
  created: boolean;
  o_id: string;
  o_currency: string;
  o_debit_account_id: string;
  o_credit_account_id: string;
  o_amount: string;
  o_code: string;
  o_metadata: unknown;
  o_created_at: Date | string;
};

/** SQL for the ledger. Methods take the database or a transaction, so services compose them. */
export const ledgerRepository = {
  /** The new account, or undefined when the owner's (or the system's) account in that currency exists. */
  async insertAccount(
    db: Db,
    values: { ownerId: string; currency: string } | { systemCode: string; currency: string },
  ): Promise<LedgerAccount | undefined> {
    const [created] = await db.insert(ledgerAccounts).values(values).onConflictDoNothing().returning();
    return created;
  },

  async findUserAccount(db: Db, ownerId: string, currency: string): Promise<LedgerAccount | undefined> {
    const [existing] = await db
      .select(accountColumns)
      .from(ledgerAccounts)
      .where(
        and(
          eq(ledgerAccounts.ownerId, ownerId),
          eq(ledgerAccounts.currency, currency),
          isNull(ledgerAccounts.parentId),
        ),
      );
    return existing && accountOf(existing);
  },

  async findSystemAccount(db: Db, systemCode: string, currency: string): Promise<LedgerAccount | undefined> {
    const [existing] = await db
      .select(accountColumns)
      .from(ledgerAccounts)
      .where(
        and(
          eq(ledgerAccounts.systemCode, systemCode),
          eq(ledgerAccounts.currency, currency),
          isNull(ledgerAccounts.ownerId),
          isNull(ledgerAccounts.parentId),
        ),
      );
    return existing && accountOf(existing);
  },

  /**
   * One transfer in one statement (ledger_transfer, migration 0043): the transfer and both
   * balances, or — its id booked before — that transfer, nothing moved, and `created: false`.
   */
  async transferInOne(
    db: Db,
    values: {
      id: string;
      currency: string;
      debitAccountId: string;
      creditAccountId: string;
      amount: bigint;
      code: string;
      metadata: Record<string, unknown> | null;
    },
  ) {
    const [row] = await rows<TransferRow>(
      db,
      sql`select * from ledger_transfer(${values.id}, ${values.currency}, ${values.debitAccountId}::uuid, ${values.creditAccountId}::uuid, ${values.amount.toString()}::numeric, ${values.code}, ${values.metadata === null ? null : JSON.stringify(values.metadata)}::jsonb)`,
    );
    const transfer: Transfer = {
      id: row!.o_id,
      currency: row!.o_currency,
      debitAccountId: row!.o_debit_account_id,
      creditAccountId: row!.o_credit_account_id,
      amount: BigInt(row!.o_amount),
      code: row!.o_code,
      metadata: row!.o_metadata,
      createdAt: new Date(row!.o_created_at),
    };
    return { created: row!.created, transfer };
  },

  /** Inserts them all (a unique violation when one exists). */
  async insertTransfers(db: Db, values: (typeof ledgerTransfers.$inferInsert)[]): Promise<void> {
    await db.insert(ledgerTransfers).values(values);
  },

  /** Those of the addresses that a deposit transfer of this currency names in its metadata. */
  async depositedTo(db: Db, currency: string, addresses: string[]): Promise<string[]> {
    const address = sql<string>`${ledgerTransfers.metadata}->>'address'`;
    const rows = await db
      .selectDistinct({ address })
      .from(ledgerTransfers)
      .where(
        and(eq(ledgerTransfers.code, 'deposit'), eq(ledgerTransfers.currency, currency), inArray(address, addresses)),
      );
    return rows.map((row) => row.address);
  },

  findTransfers(db: Db, ids: string[]): Promise<Transfer[]> {
    return db.select().from(ledgerTransfers).where(inArray(ledgerTransfers.id, ids));
  },

  async existingTransferIds(db: Db, ids: string[]): Promise<string[]> {
    const rows = await db
      .select({ id: ledgerTransfers.id })
      .from(ledgerTransfers)
      .where(inArray(ledgerTransfers.id, ids));
    return rows.map((row) => row.id);
  },

  async findTransfer(db: Db, id: string): Promise<Transfer | undefined> {
    const [existing] = await db.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, id));
    return existing;
  },

  /** Adds `delta` (negative for a debit) to the account's balance (ledger_move: on a sub-account when its row is busy); the database refuses a user account below zero. */
  async addToBalance(db: Db, accountId: string, delta: bigint): Promise<void> {
    await db.execute(sql`select ledger_move(${accountId}::uuid, ${delta.toString()}::numeric)`);
  },

  async balancesOf(db: Db, ownerId: string): Promise<{ currency: string; balance: bigint }[]> {
    const found = await db
      .select({ currency: ledgerAccounts.currency, balance: sql<string>`sum(${ledgerAccounts.balance})::text` })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.ownerId, ownerId))
      .groupBy(ledgerAccounts.currency)
      .orderBy(asc(ledgerAccounts.currency));
    return found.map((r) => ({ currency: r.currency, balance: BigInt(r.balance) }));
  },

  /** Every user account's balance above zero (what the proof of liabilities commits to). */
  async allUserBalances(db: Db): Promise<{ ownerId: string; currency: string; balance: bigint }[]> {
    // Raw rows, in no order, only those above zero: for a million balances the ORM's row mapping
    // and a sort cost more than the read (bench:liabilities). A user's rows are each at or above
    // zero, so those above zero sum to the account's balance (its sub-accounts added).
    const found = await rows<{ owner_id: string; currency: string; balance: string }>(
      db,
      sql`select ${ledgerAccounts.ownerId} as owner_id, ${ledgerAccounts.currency} as currency, sum(${ledgerAccounts.balance})::text as balance from ${ledgerAccounts} where ${ledgerAccounts.ownerId} is not null and ${ledgerAccounts.balance} > 0 group by 1, 2`,
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

  /** The ids of the owner's ledger accounts (those transfers name, not their sub-accounts), in one currency or in all. */
  async accountIdsOf(db: Db, ownerId: string, currency?: string): Promise<string[]> {
    const mine = await db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(
        and(
          eq(ledgerAccounts.ownerId, ownerId),
          isNull(ledgerAccounts.parentId),
          currency ? eq(ledgerAccounts.currency, currency) : undefined,
        ),
      );
    return mine.map((m) => m.id);
  },

  /** Up to `limit` transfers touching one of the accounts, newest first, strictly before the cursor (created_at, id) when given. */
  transfersPage(
    db: Db,
    accountIds: string[],
    after: { date: Date; id: string } | undefined,
    limit: number,
  ): Promise<Transfer[]> {
    return db
      .select()
      .from(ledgerTransfers)
      .where(
        and(
          or(inArray(ledgerTransfers.debitAccountId, accountIds), inArray(ledgerTransfers.creditAccountId, accountIds)),
          after
            ? or(
                lt(ledgerTransfers.createdAt, after.date),
                and(eq(ledgerTransfers.createdAt, after.date), sql`${ledgerTransfers.id} < ${after.id}`),
              )
            : undefined,
        ),
      )
      .orderBy(desc(ledgerTransfers.createdAt), desc(ledgerTransfers.id))
      .limit(limit);
  },

  async accountsById(db: Db, ids: string[]): Promise<LedgerAccount[]> {
    return (await db.select(accountColumns).from(ledgerAccounts).where(inArray(ledgerAccounts.id, ids))).map(accountOf);
  },

  /** The currencies whose balances do not sum to zero, with the sum. */
  unbalancedCurrencies(db: Db): Promise<{ currency: string; total: string }[]> {
    return db
      .select({ currency: ledgerAccounts.currency, total: sql<string>`sum(${ledgerAccounts.balance})::text` })
      .from(ledgerAccounts)
      .groupBy(ledgerAccounts.currency)
      .having(sql`sum(${ledgerAccounts.balance}) <> 0`);
  },

  /** The accounts whose balance (their sub-accounts' included) is not their credits minus their debits, with both. */
  balanceDrift(db: Db): Promise<{ id: string; balance: string; booked: string }[]> {
    // Drizzle names a subquery's computed columns without the subquery's alias: each gets its own name.
    const total = (
      side: typeof ledgerTransfers.debitAccountId | typeof ledgerTransfers.creditAccountId,
      name: 'credited' | 'debited',
    ) =>
      db
        .select({
          id: sql<string>`${side}`.as(`${name}_account`),
          total: sql<string>`sum(${ledgerTransfers.amount})`.as(`${name}_total`),
        })
        .from(ledgerTransfers)
        .groupBy(side)
        .as(name);
    const credits = total(ledgerTransfers.creditAccountId, 'credited');
    const debits = total(ledgerTransfers.debitAccountId, 'debited');
    const booked = sql<string>`coalesce(${credits.total}, 0) - coalesce(${debits.total}, 0)`;
    const held = db
      .select({
        id: sql<string>`${accountIdOf}`.as('held_account'),
        total: sql<string>`sum(${ledgerAccounts.balance})`.as('held_total'),
      })
      .from(ledgerAccounts)
      .groupBy(accountIdOf)
      .as('held');
    return db
      .select({ id: held.id, balance: sql<string>`${held.total}::text`, booked: sql<string>`(${booked})::text` })
      .from(held)
      .leftJoin(credits, eq(credits.id, held.id))
      .leftJoin(debits, eq(debits.id, held.id))
      .where(sql`${held.total} <> ${booked}`);
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
