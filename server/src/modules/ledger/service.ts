import { DomainError } from '#domain/errors';
import { ledgerRepository, type LedgerAccount, type Transfer } from './repository';
import type { LedgerCheck } from '#domain/contracts/ops';
import type { Db } from '../../db/client';

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
export type { LedgerAccount, Transfer };
/**
 * `payouts` holds money between a payout's booking and its result (a clearing account);
 * `unmatched` a bank payment no order claimed, on its way back to the payer (modules/bank);
 * `returns` a payout the payee's bank sent back, owed to the customer until they give another IBAN.
 */
export type SystemCode = 'bank' | 'chain' | 'fees' | 'faucet' | 'exchange' | 'payouts' | 'unmatched' | 'returns';

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
  const created = await ledgerRepository.insertAccount(db, { ownerId, currency });
  if (created) return created;
  return (await ledgerRepository.findUserAccount(db, ownerId, currency))!;
}

/** A system account (the outside world's side of a transfer), created at first use. */
export async function systemAccount(db: Db, systemCode: SystemCode, currency: string): Promise<LedgerAccount> {
  const created = await ledgerRepository.insertAccount(db, { systemCode, currency });
  if (created) return created;
  return (await ledgerRepository.findSystemAccount(db, systemCode, currency))!;
}

function violated(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { constraint?: string }).constraint === constraint) return true;
    if (String((e as { message?: string }).message ?? '').includes(constraint)) return true;
  }
  return false;
}

const sameTransfer = (a: Transfer, b: TransferInput) =>
  a.currency === b.currency &&
  a.debitAccountId === b.debitAccountId &&
  a.creditAccountId === b.creditAccountId &&
  a.amount === b.amount &&
  a.code === b.code;

/**
 * Moves `amount` from the debit to the credit account, atomically, in the caller's transaction
 * when given one (a savepoint, so that a refusal leaves the caller's transaction usable): one
 * statement, ledger_transfer (migration 0043). A side whose row another transaction holds books
 * on a free sub-account instead of waiting (ledger_move), so transfers through one house account
 * do not queue behind each other's commits. Returns `created: false` when this id was already booked.
 */
export async function transfer(db: Db, input: TransferInput): Promise<{ transfer: Transfer; created: boolean }> {
  if (input.amount <= 0n) throw new DomainError('validation_failed', 'amount', 'The amount must be positive.');
  const book = (q: Db) => ledgerRepository.transferInOne(q, { ...input, metadata: input.metadata ?? null });
  try {
    // Outside a transaction the one statement is its own.
    const booked = 'rollback' in db ? await db.transaction(book) : await book(db);
    if (!booked.created && !sameTransfer(booked.transfer, input)) throw new DomainError('idempotency_conflict');
    return booked;
  } catch (error) {
    if (violated(error, 'ledger_accounts_user_not_negative')) throw new DomainError('insufficient_balance');
    throw error;
  }
}

/**
 * Many new transfers in one statement, and each account's balance moved once by their net sum
 * (a statement's payments all go bank → exchange): for an import of hundreds of payments, where
 * `transfer` would take three statements each. All or nothing, in the caller's transaction; every
 * id must be new (the caller checked `bookedTransfers`): an id booked meanwhile fails the whole
 * call (a unique violation), never books twice.
 */
export async function transfersAtOnce(db: Db, inputs: TransferInput[]): Promise<void> {
  if (inputs.length === 0) return;
  for (const input of inputs)
    if (input.amount <= 0n) throw new DomainError('validation_failed', 'amount', 'The amount must be positive.');
  await db.transaction(async (tx) => {
    await ledgerRepository.insertTransfers(
      tx,
      inputs.map((input) => ({ ...input, metadata: input.metadata ?? null })),
    );
    const deltas = new Map<string, bigint>();
    for (const input of inputs) {
      deltas.set(input.debitAccountId, (deltas.get(input.debitAccountId) ?? 0n) - input.amount);
      deltas.set(input.creditAccountId, (deltas.get(input.creditAccountId) ?? 0n) + input.amount);
    }
    // In id order: two of these never wait for each other crosswise.
    for (const [id, delta] of [...deltas].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (delta !== 0n) await ledgerRepository.addToBalance(tx, id, delta);
  });
}

/** Which of these transfer ids are booked already. */
export async function bookedTransfers(db: Db, ids: string[]): Promise<Set<string>> {
  return new Set(ids.length ? await ledgerRepository.existingTransferIds(db, ids) : []);
}

/** Which of these addresses (in this currency) a deposit transfer names: something arrived at them. */
export async function addressesWithDeposits(db: Db, currency: string, addresses: string[]): Promise<Set<string>> {
  return new Set(addresses.length ? await ledgerRepository.depositedTo(db, currency, addresses) : []);
}

/** The transfers booked under these ids (idempotency keys), those that are. */
export async function transfersByIds(db: Db, ids: string[]): Promise<Transfer[]> {
  return ids.length ? ledgerRepository.findTransfers(db, ids) : [];
}

/** The transfer booked under this id (idempotency key), if any. */
export function bookedTransfer(db: Db, id: string): Promise<Transfer | undefined> {
  return ledgerRepository.findTransfer(db, id);
}

export async function balancesOf(db: Db, ownerId: string): Promise<{ currency: string; balance: bigint }[]> {
  return ledgerRepository.balancesOf(db, ownerId);
}

export async function accountsById(db: Db, ids: string[]): Promise<LedgerAccount[]> {
  return ids.length ? ledgerRepository.accountsById(db, ids) : [];
}

/** The ids of the owner's ledger accounts (those transfers name, not their sub-accounts), in one currency or in all. */
export function ownerAccountIds(db: Db, ownerId: string, currency?: string): Promise<string[]> {
  return ledgerRepository.accountIdsOf(db, ownerId, currency);
}

/** Up to `limit` transfers touching one of the accounts, newest first, strictly before the cursor (created_at, id) when given. */
export function transfersPage(
  db: Db,
  accountIds: string[],
  after: { date: Date; id: string } | undefined,
  limit: number,
): Promise<Transfer[]> {
  return ledgerRepository.transfersPage(db, accountIds, after, limit);
}

/** Every user account's balance, by currency then owner: one statement, so one consistent snapshot. */
export function allUserBalances(db: Db): Promise<{ ownerId: string; currency: string; balance: bigint }[]> {
  return ledgerRepository.allUserBalances(db);
}

/** Per currency, what all users hold together in minor units (`ledger:verify` prints it). */
export async function userTotals(db: Db): Promise<{ currency: string; total: bigint }[]> {
  return (await ledgerRepository.userTotals(db)).map((r) => ({ currency: r.currency, total: BigInt(r.total) }));
}

/** One invariant's result, as `GET /api/ops/ledger/verify` answers it (domain/contracts/ops.ts). */
export type { LedgerCheck };

/** `npm run ops -- ledger:verify`: every invariant, checked from the raw data. */
export async function verifyLedger(db: Db): Promise<LedgerCheck[]> {
  const sums = await ledgerRepository.unbalancedCurrencies(db);
  const drift = await ledgerRepository.balanceDrift(db);
  const negative = await ledgerRepository.negativeUserAccounts(db);
  const badTransfers = await ledgerRepository.malformedTransfers(db);
  return [
    {
      name: 'per currency, all balances sum to zero',
      ok: sums.length === 0,
      problems: sums.map((r) => `${r.currency}: ${r.total}`),
    },
    {
      name: 'every balance equals its credits minus its debits',
      ok: drift.length === 0,
      problems: drift.map((r) => `${r.id}: ${r.balance} ≠ ${r.booked}`),
    },
    {
      name: 'no user account is below zero',
      ok: negative.length === 0,
      problems: negative.map((r) => `${r.id}: ${r.balance}`),
    },
    {
      name: 'every transfer is positive, within one currency, between two accounts',
      ok: badTransfers.length === 0,
      problems: badTransfers.map((r) => r.id),
    },
  ];
}
