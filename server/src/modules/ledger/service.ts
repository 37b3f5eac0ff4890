import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts, ledgerTransfers } from '../../db/schema';
import { ApiError } from '../../errors';

/**
 * The ledger: the source of truth for every balance (wallet, exchange, faucet).
 *
 * Invariants (see the schema, where the database enforces them):
 * - the sum of all balances of a currency is zero: every transfer debits and credits accounts of
 *   its own currency by the same positive amount;
 * - a user account never goes below zero, even under concurrent transfers;
 * - transfers are immutable, and the transfer id is the idempotency key: the same id twice moves
 *   money once.
 */
export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type Transfer = typeof ledgerTransfers.$inferSelect;
export type SystemCode = 'bank' | 'chain' | 'fees' | 'faucet' | 'exchange';

export type TransferInput = {
  /** The idempotency key: derive it from what the transfer is for (e.g. `send:<id>`). */
  id: string;
  currency: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  code: string;
  metadata?: Record<string, unknown>;
};

/** The user's account in a currency, created at first use. */
export async function userAccount(db: Db, ownerId: string, currency: string): Promise<LedgerAccount> {
  const [created] = await db.insert(ledgerAccounts).values({ ownerId, currency }).onConflictDoNothing().returning();
  if (created) return created;
  const [existing] = await db
    .select()
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.ownerId, ownerId), eq(ledgerAccounts.currency, currency)));
  return existing!;
}

/** A system account (the outside world's side of a transfer), created at first use. */
export async function systemAccount(db: Db, systemCode: SystemCode, currency: string): Promise<LedgerAccount> {
  const [created] = await db.insert(ledgerAccounts).values({ systemCode, currency }).onConflictDoNothing().returning();
  if (created) return created;
  const [existing] = await db
    .select()
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.systemCode, systemCode), eq(ledgerAccounts.currency, currency), isNull(ledgerAccounts.ownerId)));
  return existing!;
}

function violated(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { constraint?: string }).constraint === constraint) return true;
    if (String((e as { message?: string }).message ?? '').includes(constraint)) return true;
  }
  return false;
}

const sameTransfer = (a: Transfer, b: TransferInput) =>
  a.currency === b.currency && a.debitAccountId === b.debitAccountId && a.creditAccountId === b.creditAccountId && a.amount === b.amount && a.code === b.code;

/**
 * Moves `amount` from the debit to the credit account, atomically, in the caller's transaction
 * when given one. Balances are updated in account-id order so concurrent transfers between the
 * same accounts cannot deadlock. Returns `created: false` when this id was already booked.
 */
export async function transfer(db: Db, input: TransferInput): Promise<{ transfer: Transfer; created: boolean }> {
  if (input.amount <= 0n) throw new ApiError(400, 'validation_failed', 'amount', 'The amount must be positive.');
  try {
    return await db.transaction(async (tx) => {
      const [inserted] = await tx.insert(ledgerTransfers).values({ ...input, metadata: input.metadata ?? null }).onConflictDoNothing().returning();
      if (!inserted) {
        const [existing] = await tx.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, input.id));
        if (!existing || !sameTransfer(existing, input)) throw new ApiError(409, 'idempotency_conflict');
        return { transfer: existing, created: false };
      }
      const moves = [
        { id: input.debitAccountId, delta: -input.amount },
        { id: input.creditAccountId, delta: input.amount },
      ].sort((a, b) => (a.id < b.id ? -1 : 1));
      for (const move of moves) {
        await tx
          .update(ledgerAccounts)
          .set({ balance: sql`${ledgerAccounts.balance} + ${move.delta.toString()}::bigint` })
          .where(eq(ledgerAccounts.id, move.id));
      }
      return { transfer: inserted, created: true };
    });
  } catch (error) {
    if (violated(error, 'ledger_accounts_user_not_negative')) throw new ApiError(409, 'insufficient_balance');
    throw error;
  }
}

export async function balancesOf(db: Db, ownerId: string): Promise<{ currency: string; balance: bigint }[]> {
  return db
    .select({ currency: ledgerAccounts.currency, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerId, ownerId))
    .orderBy(asc(ledgerAccounts.currency));
}

export async function accountsById(db: Db, ids: string[]): Promise<LedgerAccount[]> {
  return ids.length ? db.select().from(ledgerAccounts).where(inArray(ledgerAccounts.id, ids)) : [];
}

export type LedgerCheck = { name: string; ok: boolean; problems: string[] };

/** `npm run ops -- ledger:verify`: every invariant, checked from the raw data. */
export async function verifyLedger(db: Db): Promise<LedgerCheck[]> {
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const sums = await rows<{ currency: string; total: string }>(
    sql`select currency, sum(balance)::text as total from ledger_accounts group by currency having sum(balance) <> 0`,
  );
  const drift = await rows<{ id: string; balance: string; booked: string }>(sql`
    select a.id, a.balance::text as balance, coalesce(c.total, 0) - coalesce(d.total, 0) as booked
    from ledger_accounts a
    left join (select credit_account_id as id, sum(amount) as total from ledger_transfers group by 1) c on c.id = a.id
    left join (select debit_account_id as id, sum(amount) as total from ledger_transfers group by 1) d on d.id = a.id
    where a.balance <> coalesce(c.total, 0) - coalesce(d.total, 0)`);
  const negative = await rows<{ id: string; balance: string }>(
    sql`select id, balance::text as balance from ledger_accounts where owner_id is not null and balance < 0`,
  );
  const badTransfers = await rows<{ id: string }>(sql`
    select t.id from ledger_transfers t
    join ledger_accounts d on d.id = t.debit_account_id
    join ledger_accounts c on c.id = t.credit_account_id
    where t.amount <= 0 or d.currency <> t.currency or c.currency <> t.currency or t.debit_account_id = t.credit_account_id`);
  return [
    { name: 'per currency, all balances sum to zero', ok: sums.length === 0, problems: sums.map((r) => `${r.currency}: ${r.total}`) },
    { name: 'every balance equals its credits minus its debits', ok: drift.length === 0, problems: drift.map((r) => `${r.id}: ${r.balance} ≠ ${r.booked}`) },
    { name: 'no user account is below zero', ok: negative.length === 0, problems: negative.map((r) => `${r.id}: ${r.balance}`) },
    { name: 'every transfer is positive, within one currency, between two accounts', ok: badTransfers.length === 0, problems: badTransfers.map((r) => r.id) },
  ];
}
