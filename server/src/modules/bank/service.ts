import { randomBytes } from 'node:crypto';
import { IMPORT_OUTCOMES } from '#domain/contracts/bank';
import { DomainError } from '#domain/errors';
import { minorToDecimal } from '#domain/money';
import { leavesEea, sameIban, sepaIban, type PainVersion, type PostalAddress } from '#domain/sepa';
import { findAccountById } from '../accounts/service';
import { recordAudit, recordAudits } from '../audit/service';
import { orderOutflowGate } from '../gates/service';
import { verifiedBankHolder } from '../identity/service';
import { systemAccount, transfer } from '../ledger/service';
import { AmbiguousReference, bankPaymentReceived, bankPaymentsReceivedAtOnce } from '../orders/intake';
import { findOrderById, orderReferences } from '../orders/service';
import {
  bookPayoutResult,
  findPayout,
  lockPayoutsForBankFile,
  markPayoutsInBankFile,
  requestPayout,
  type PayoutOutcomes,
  type PayoutRow,
} from '../payouts/service';
import { readBankStatement, type StatementLine } from './camt';
import { buildPain001 } from './pain';
import { bankRepository, paymentValues, type BankExportRow, type BankPaymentRow } from './repository';
import { holderNameOfReissue, importReturn, type ReturnLinks } from './returns';
import type { BankPaymentStatus } from '#domain/bank';
import type {
  BankExport,
  BankPayment,
  ImportLine,
  ImportOutcome,
  ImportStatementResponse,
} from '#domain/contracts/bank';
import type { Db, Tx } from '../../db/client';
import type { PayoutApproval } from '../payouts/approval';
import type { RatesAdapter } from '../rates/service';

/**
 * The operator's bank files (ISO 20022), beside the simulator that local mode keeps
 * (`ops payment-received`):
 *
 * - statement in: a camt.053 statement's (or a camt.054 notification's) credits go through the same intake as
 *   `payment-received` (orders/intake.ts, one place for the matching rule), once per bank
 *   reference — the unique index on bank_payments.entry_ref decides, so a statement imported twice,
 *   or twice at once, books nothing twice. What matches nothing waits in the unmatched queue for an
 *   operator, who assigns it (the same intake again) or refunds it (a SEPA payout to the payer).
 *   A debit whose end-to-end id names an exported payout completes that payout.
 * - payouts out: EUR payouts that are due go into one pain.001 file, each in exactly one file
 *   (rows locked, marked in the transaction that writes the file).
 *
 * Unmatched money stays out of the ledger until it is resolved: assigning books it as the order's
 * payment (bank → exchange), refunding books it from the bank into the `unmatched` system account
 * and out again as a payout. Both use the transfer id `bank-payment:<entry ref>`, so one payment
 * can never be both.
 */
/**
 * Muntly's bank account (BANK_IBAN, BANK_BIC, BANK_BENEFICIARY), the payouts file's version
 * (BANK_PAIN_VERSION) and Muntly's structured address as the payer (BANK_DEBTOR_*).
 */
export type BankAccountConfig = {
  iban: string;
  bic: string;
  name: string;
  painVersion: PainVersion;
  address: PostalAddress;
};

/** How many payouts one file takes at most; the rest go in the next. */
const EXPORT_BATCH_LIMIT = 1000;

const bankTransferId = (entryRef: string) => `bank-payment:${entryRef}`;
const compactIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

/** A pain.001 end-to-end id (at most 35 characters): the payout's id without its dashes. */
export const endToEndIdOf = (payoutId: string) => payoutId.replace(/-/g, '');
function payoutIdOf(endToEndId: string | null): string | null {
  const hex = endToEndId?.replace(/-/g, '').toLowerCase() ?? '';
  return /^[0-9a-f]{32}$/.test(hex)
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : null;
}
/** A bank reference as a payout's txid (printable, no spaces: PAYOUT_TXID_PATTERN). */
const txidOf = (entryRef: string) => `bank:${entryRef.replace(/[^A-Za-z0-9:_.-]/g, '_')}`.slice(0, 128);

// ---------------------------------------------------------------------------------------------
// Statement in

/** How far an import got: lines done (committed) of all the file's lines, for the console's progress bar. */
export type ImportProgress = { done: number; total: number };

/**
 * The import goes in batches of this many lines, one transaction each, and yields to the event
 * loop between them: on PGlite a transaction holds the one connection, so every other request
 * waits for it; on PostgreSQL it holds the rows it locked (the bank's and the exchange's balances
 * among them). In a batch the payments are inserted in one statement and those that plainly pay a
 * buy order are taken in together (bankPaymentsReceivedAtOnce): a few statements per batch and
 * one per payment (its audit row moves the chain's head) instead of about twenty per line, which
 * is where the time went (bench/statements.ts: 1,500 entries, 95 s before and 15 s after on
 * PGlite, 55 s and 11 s on PostgreSQL, both on a machine loaded some tenfold). The rest
 * (unmatched, deposits, debits) still go one by one, about ten statements each: 50 lines keep even
 * a batch of those short.
 */
const BATCH_LINES = 50;

/**
 * Imports a camt.053 statement or camt.054 notification, already decoded (encoding.ts). Only the
 * statements of Muntly's own account (BANK_IBAN) are read: a bank that exports several accounts
 * in one file (Rabobank does) has the others reported in `otherAccounts`, IBAN masked, and left
 * alone; a file with none of Muntly's is refused. A camt.054's entries go through the same
 * import as a statement's, once per bank reference: the same payment notified during the day
 * and stated again in the evening is booked once, whichever comes first.
 */
export async function importStatement(
  db: Db,
  deps: { rates: RatesAdapter; outcomes: PayoutOutcomes; account: BankAccountConfig; links?: ReturnLinks },
  xml: string | StatementPlan,
  actor: string,
  onProgress?: (progress: ImportProgress) => void,
): Promise<ImportStatementResponse> {
  const plan = typeof xml === 'string' ? planImport(xml, deps.account) : xml;
  const lines: ImportLine[] = [];
  while (lines.length < plan.work.length) {
    lines.push(...(await importBatch(db, deps, plan.work.slice(lines.length, lines.length + BATCH_LINES), actor)));
    onProgress?.({ done: lines.length, total: plan.work.length });
    // Whatever waited for the database goes first.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const counts = Object.fromEntries(
    IMPORT_OUTCOMES.map((o) => [o, lines.filter((l) => l.outcome === o).length]),
  ) as Record<ImportOutcome, number>;
  return { version: plan.version, statements: plan.statements, otherAccounts: plan.otherAccounts, lines, counts };
}

/** A file read and checked, before anything is booked: what importStatement will do. */
export type StatementPlan = Pick<ImportStatementResponse, 'version' | 'statements' | 'otherAccounts'> & {
  work: { line: StatementLine; statementId: string | null }[];
};

/** Reads the file and picks Muntly's account's statements; refuses what cannot be imported (before a streamed answer starts). */
/** The largest amount of a SEPA credit transfer (EPC rulebook: 999,999,999.99 EUR), in cents: no entry of a statement is larger. */
const MAX_STATEMENT_AMOUNT = 99_999_999_999n;

export function planImport(xml: string, account: BankAccountConfig): StatementPlan {
  const { kind, version, statements: all } = readBankStatement(xml);
  // A statement of another account would credit orders with money Muntly never received.
  const ours = compactIban(account.iban);
  const statements = all.filter((statement) => statement.iban === ours);
  const otherAccounts = all
    .filter((statement) => statement.iban !== ours)
    .map((s) => ({ statementId: s.id, iban: maskedIban(s.iban), payments: s.lines.length }));
  if (statements.length === 0) {
    const named = [...new Set(otherAccounts.map((o) => o.iban ?? 'an account without IBAN'))].join(', ');
    throw new DomainError('statement_wrong_account', 'statement', `This file is for ${named}, not for BANK_IBAN.`);
  }
  // Checked whole before anything is booked: a file with an impossible amount is refused, not half imported.
  for (const line of statements.flatMap((statement) => statement.lines)) {
    if (line.amount !== null && line.amount > MAX_STATEMENT_AMOUNT)
      throw new DomainError(
        'statement_invalid',
        'statement',
        `Entry ${line.ref}: ${line.amountText} ${line.currency} is more than any SEPA payment can be (999999999.99).`,
      );
  }
  return {
    version: `${kind}.001.${version}`,
    statements: statements.map((s) => s.id),
    otherAccounts,
    work: statements.flatMap((statement) => statement.lines.map((line) => ({ line, statementId: statement.id }))),
  };
}

/** Enough of another account's IBAN for the operator to recognise it (country, check digits, last four), not to use it. */
function maskedIban(iban: string | null): string | null {
  return iban ? `${iban.slice(0, 4)} … ${iban.slice(-4)}` : null;
}

/**
 * One batch of lines in one transaction, each line's outcome as one by one:
 * 1. the credits' payments inserted in one statement: a bank reference imported before (or earlier
 *    in the file) is a duplicate, as the unique index decides;
 * 2. those whose first reason is plainly an open buy order's short reference taken in together
 *    (the intake's bankPaymentsReceivedAtOnce), matched and audited in a few statements;
 * 3. every other line one by one, in a savepoint of its own (importCredit, importDebit), so a line
 *    the intake refuses leaves the others standing.
 * Two payments naming the same order in one batch: the one taken in step 2 pays it, the other
 * finds it paid (unmatched), as in file order when both are plain references.
 * A batch that PostgreSQL chose as a deadlock's victim (another import or an operator's assign
 * holding an order this batch wants, while it holds the balances) is tried again: nothing of it
 * was committed.
 */
async function importBatch(
  db: Db,
  deps: { rates: RatesAdapter; outcomes: PayoutOutcomes; account: BankAccountConfig; links?: ReturnLinks },
  work: { line: StatementLine; statementId: string | null }[],
  actor: string,
): Promise<ImportLine[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        // A return (a payout sent back) is booked by importReturn, row and all: not among the batch's payments.
        const credits = work.flatMap(({ line, statementId }, index) =>
          line.direction === 'credit' && !line.returned && skipOf(line) === null ? [{ line, statementId, index }] : [],
        );
        const inserted = new Map(
          (
            await bankRepository.insertPayments(
              tx,
              credits.map(({ line, statementId }) => paymentValues(line, statementId)),
            )
          ).map((row) => [row.entryRef, row]),
        );
        const rowOf = new Map<number, BankPaymentRow>();
        for (const { line, index } of credits) {
          const row = inserted.get(line.ref);
          if (row) rowOf.set(index, row); // the first time in the file; again later is a duplicate
          inserted.delete(line.ref);
        }
        const plain = credits.filter(({ line, index }) => rowOf.has(index) && line.reasons.length > 0);
        const funded = await bankPaymentsReceivedAtOnce(
          tx,
          plain.map(({ line }) => ({
            reason: line.reasons.join('\n'),
            amount: minorToDecimal(line.amount!, 2),
            txid: line.ref,
            payerIban: line.partyIban ?? undefined,
          })),
        );
        const matched = new Map(
          plain.flatMap(({ index }, k) =>
            funded.has(k) ? [[index, { row: rowOf.get(index)!, order: funded.get(k)! }] as const] : [],
          ),
        );
        await bankRepository.markMatched(
          tx,
          [...matched.values()].map(({ row, order }) => ({ id: row.id, orderId: order.id })),
        );
        await recordAudits(
          tx,
          [...matched.values()].map(({ row, order }) => ({
            actor,
            action: 'bank.payment_matched' as const,
            target: order.reference,
            after: {
              bankPaymentId: row.id,
              entryRef: row.entryRef,
              orderReference: order.reference,
              amount: minorToDecimal(row.amount, 2),
            },
          })),
        );

        const done: ImportLine[] = [];
        for (const [index, { line, statementId }] of work.entries()) {
          const shown = {
            entryRef: line.ref,
            direction: line.direction,
            amount: line.amountText,
            currency: line.currency,
            reference: null,
            paymentId: null,
            reason: null,
          };
          const skip = skipOf(line);
          const taken = matched.get(index);
          if (skip) done.push({ ...shown, outcome: 'skipped', reason: skip });
          else if (line.direction === 'debit')
            done.push({ ...shown, ...(await importDebit(tx, deps.outcomes, line, actor)) });
          // A payout of Muntly's sent back by the payee's bank (returns.ts), never an ordinary payment.
          else if (line.returned)
            done.push({
              ...shown,
              ...(await importReturn(tx, deps, line, payoutIdOf(line.endToEndId), statementId, actor)),
            });
          else if (taken)
            done.push({ ...shown, outcome: 'booked', reference: taken.order.reference, paymentId: taken.row.id });
          else if (!rowOf.has(index)) done.push({ ...shown, outcome: 'duplicate' });
          else
            done.push({
              ...shown,
              ...(await importCredit(tx, deps.rates, line, statementId, actor, rowOf.get(index))),
            });
        }
        return done;
      });
    } catch (error) {
      if (attempt >= 3 || !retryable(error)) throw error;
    }
  }
}

/** Why a line is not money to import (not booked, not EUR, no usable amount), or null. */
function skipOf(line: StatementLine): string | null {
  return !line.booked
    ? 'not_booked'
    : line.currency !== 'EUR'
      ? 'not_eur'
      : line.amount === null || line.amount <= 0n
        ? 'invalid_amount'
        : null;
}

/**
 * PostgreSQL's deadlock and serialization failures, and a unique violation (a bank reference or
 * transfer another import booked meanwhile): the batch was rolled back and runs again, and then
 * finds what the other one committed.
 */
function retryable(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: string }).code;
    if (code === '40P01' || code === '40001' || code === '23505') return true;
  }
  return false;
}

type LineResult = Pick<ImportLine, 'outcome' | 'reference' | 'paymentId' | 'reason'>;

/**
 * One credit, in one transaction: the row first (the unique bank reference makes a second import
 * wait for the first and then find it there), then what the payer wrote through the intake, which
 * books it when exactly one open order or deposit is named anywhere in it. The intake runs in a
 * savepoint: a reason it refuses leaves nothing behind; several candidates are kept for the operator.
 */
async function importCredit(
  db: Db,
  rates: RatesAdapter,
  line: StatementLine,
  statementId: string | null,
  actor: string,
  inserted?: BankPaymentRow,
): Promise<LineResult> {
  return db.transaction(async (tx) => {
    // Inserted already with the rest of its batch (importBatch), or here.
    const row = inserted ?? (await bankRepository.insertPayment(tx, paymentValues(line, statementId)));
    if (!row) return { outcome: 'duplicate', reference: null, paymentId: null, reason: null };
    // Everything the payer (and the bank) wrote, as one text: a reference is found wherever it stands (orders/intake.ts).
    let unmatchedReason: string = line.refusal ?? 'no_reason';
    let candidates: string[] | null = null;
    if (line.reasons.length > 0 && !line.refusal) {
      try {
        const { order } = await bankPaymentReceived(tx, rates, {
          reason: line.reasons.join('\n'),
          amount: minorToDecimal(line.amount!, 2),
          txid: line.ref,
          payerIban: line.partyIban ?? undefined,
        });
        await bankRepository.updatePayment(tx, row.id, { status: 'matched', orderId: order.id });
        await recordAudit(tx, {
          actor,
          action: 'bank.payment_matched',
          target: order.reference,
          after: {
            bankPaymentId: row.id,
            entryRef: row.entryRef,
            orderReference: order.reference,
            amount: minorToDecimal(row.amount, 2),
          },
        });
        return { outcome: 'booked', reference: order.reference, paymentId: row.id, reason: null };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        unmatchedReason = error.code;
        if (error instanceof AmbiguousReference) candidates = error.candidates;
      }
    }
    await bankRepository.updatePayment(tx, row.id, { unmatchedReason, candidates });
    await recordAudit(tx, {
      actor,
      action: 'bank.payment_unmatched',
      target: row.id,
      after: { entryRef: row.entryRef, amount: minorToDecimal(row.amount, 2), unmatchedReason, candidates },
    });
    return { outcome: 'unmatched', reference: null, paymentId: row.id, reason: unmatchedReason };
  });
}

/** A debit whose end-to-end id is a payout's: the bank executed it, the payout is completed (once). */
async function importDebit(db: Db, outcomes: PayoutOutcomes, line: StatementLine, actor: string): Promise<LineResult> {
  const none = { reference: null, paymentId: null };
  const payoutId = payoutIdOf(line.endToEndId);
  const payout = payoutId ? await findPayout(db, payoutId) : undefined;
  if (!payout || payout.rail !== 'bank') return { ...none, outcome: 'ignored', reason: null };
  // Its return was booked first (the return came in before the debit was reported): the bank paid it.
  if (payout.status === 'returned')
    return { ...none, outcome: 'duplicate', reference: payout.id, reason: 'payout_returned' };
  if (payout.amount !== line.amount || payout.currency !== line.currency)
    return { ...none, outcome: 'skipped', reference: payout.id, reason: 'amount_differs' };
  try {
    const booked = await db.transaction(async (tx) => {
      const result = await bookPayoutResult(tx, outcomes, {
        id: payout.id,
        result: { status: 'completed', txid: txidOf(line.ref) },
      });
      if (result.booked)
        await recordAudit(tx, {
          actor,
          action: 'bank.payout_completed',
          target: payout.id,
          after: { status: 'completed', entryRef: line.ref },
        });
      return result.booked;
    });
    return { ...none, outcome: booked ? 'payout_completed' : 'duplicate', reference: payout.id, reason: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Another import (the same statement at once) completed and returned it while this one waited for the payout.
    if ((await findPayout(db, payout.id))?.status === 'returned')
      return { ...none, outcome: 'duplicate', reference: payout.id, reason: 'payout_returned' };
    return { ...none, outcome: 'skipped', reference: payout.id, reason: error.code };
  }
}

// ---------------------------------------------------------------------------------------------
// The unmatched queue

export async function listBankPayments(
  db: Db,
  filter: { status: BankPaymentStatus | 'all'; limit: number },
): Promise<BankPayment[]> {
  const rows = await bankRepository.listPayments(db, {
    status: filter.status === 'all' ? undefined : filter.status,
    limit: filter.limit,
  });
  const references = await orderReferences(
    db,
    rows.flatMap((row) => (row.orderId ? [row.orderId] : [])),
  );
  return rows.map((row) => bankPaymentView(row, row.orderId ? (references.get(row.orderId) ?? null) : null));
}

/** How many payments wait in the unmatched queue. */
export const unmatchedCount = (db: Db) => bankRepository.countOpen(db);

/** The statement payments an order was paid with (matched on import, or assigned). */
export const bankPaymentsOfOrder = (db: Db, orderId: string) => bankRepository.paymentsOfOrder(db, orderId);

async function lockOpenPayment(tx: Tx, id: string): Promise<BankPaymentRow> {
  const payment = await bankRepository.lockPayment(tx, id);
  if (!payment) throw new DomainError('not_found', 'id');
  if (payment.status !== 'open') throw new DomainError('bank_payment_resolved', 'id');
  return payment;
}

/** An order's full reference (ABCD-EFGH-…) is read as its short one, which is what payers write. */
function reasonOf(target: string): string {
  const full = /^([A-Za-z]{4}-[A-Za-z]{4})(-[A-Za-z]{4})+$/.exec(target.trim());
  return full ? full[1]! : target;
}

/**
 * The operator says what an unmatched payment was for: an order's reference or a deposit
 * reference. The intake takes it exactly as if the payer had written that reason. Once: the row
 * is locked, and a second assign (or a refund) finds it resolved.
 */
export async function assignBankPayment(
  db: Db,
  rates: RatesAdapter,
  input: { id: string; target: string; actor: string },
) {
  return db.transaction(async (tx) => {
    const payment = await lockOpenPayment(tx, input.id);
    const { order } = await bankPaymentReceived(tx, rates, {
      reason: reasonOf(input.target),
      amount: minorToDecimal(payment.amount, 2),
      txid: payment.entryRef,
      payerIban: payment.payerIban ?? undefined,
    });
    const assigned = await bankRepository.updatePayment(tx, payment.id, {
      status: 'assigned',
      orderId: order.id,
      resolution: `assigned to ${order.reference}`,
      resolvedBy: input.actor,
      resolvedAt: new Date(),
    });
    await recordAudit(tx, {
      actor: input.actor,
      action: 'bank.payment_assigned',
      target: payment.id,
      before: { status: payment.status },
      after: { status: assigned.status, entryRef: payment.entryRef, orderReference: order.reference },
    });
    return {
      payment: bankPaymentView(assigned, order.reference),
      order: { reference: order.reference, type: order.type, status: order.status },
    };
  });
}

/**
 * The operator sends an unmatched payment back to the IBAN it came from: booked into the ledger
 * (bank → unmatched) and out again as a SEPA payout, which the next pain.001 file carries.
 */
export async function refundBankPayment(db: Db, approval: PayoutApproval, input: { id: string; actor: string }) {
  return db.transaction(async (tx) => {
    const payment = await lockOpenPayment(tx, input.id);
    // A return came from the payee's bank: its IBAN is the account that was closed or refused it.
    if (payment.isReturn) throw new DomainError('bank_payment_is_return', 'id');
    const iban = payment.payerIban ? sepaIban(payment.payerIban) : null;
    if (!iban?.ok) throw new DomainError('bank_payment_no_iban', 'id');
    const unmatched = await systemAccount(tx, 'unmatched', 'EUR');
    const meta = { bankPaymentId: payment.id, entryRef: payment.entryRef };
    await transfer(tx, {
      id: bankTransferId(payment.entryRef),
      currency: 'EUR',
      debitAccountId: (await systemAccount(tx, 'bank', 'EUR')).id,
      creditAccountId: unmatched.id,
      amount: payment.amount,
      code: 'bank_payment',
      metadata: meta,
    });
    const payout = await requestPayout(tx, {
      pass: orderOutflowGate('payment_refund'),
      rail: 'bank',
      purpose: 'payment_refund',
      bankPaymentId: payment.id,
      currency: 'EUR',
      destination: iban.iban,
      reference: `Refund: ${payment.remittance}`.trim().slice(0, 140),
      amount: payment.amount,
      networkFee: 0n,
      sourceAccountId: unmatched.id,
      idempotencyKey: `payment-refund:${payment.id}`,
      holds: [{ id: `payment-refund:${payment.id}`, amount: payment.amount, code: 'refund', metadata: meta }],
      // An operator's decision: four eyes judge it as any payout, and its trigger cannot approve it.
      approval: { policy: approval, accountId: null, triggeredBy: input.actor },
    });
    const refunded = await bankRepository.updatePayment(tx, payment.id, {
      status: 'refunded',
      resolution: `refunded (payout ${payout.id})`,
      resolvedBy: input.actor,
      resolvedAt: new Date(),
    });
    await recordAudit(tx, {
      actor: input.actor,
      action: 'bank.payment_refunded',
      target: payment.id,
      before: { status: payment.status },
      after: { status: refunded.status, entryRef: payment.entryRef, payoutId: payout.id },
    });
    return {
      payment: bankPaymentView(refunded, null),
      payout: {
        id: payout.id,
        status: payout.status,
        amount: minorToDecimal(payout.amount, 2),
        currency: payout.currency,
        destination: payout.destination!,
      },
    };
  });
}

/**
 * A refund the bank could not pay (the payer's account closed) leaves the money in the
 * `unmatched` account and the payout listed as failed, for the operator (as an order's refund).
 */
export const bankPayoutOutcomes: Pick<PayoutOutcomes, 'payment_refund'> = {
  payment_refund: { approved: async () => undefined, completed: async () => undefined, failed: async () => undefined },
};

export function bankPaymentView(row: BankPaymentRow, orderReference: string | null): BankPayment {
  return {
    id: row.id,
    entryRef: row.entryRef,
    statementId: row.statementId,
    amount: minorToDecimal(row.amount, 2),
    currency: row.currency,
    payerName: row.payerName,
    payerIban: row.payerIban,
    remittance: row.remittance,
    bookingDate: row.bookingDate,
    status: row.status,
    unmatchedReason: row.unmatchedReason,
    candidates: row.candidates ?? [],
    returned: row.isReturn ? { reason: row.returnReason, info: row.returnInfo } : null,
    orderReference,
    resolution: row.resolution,
    resolvedBy: row.resolvedBy,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    importedAt: row.importedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Payouts out

/** Why a due payout stays out of a file (and due): the operator sees it listed with the file. */
export type SkipReason = 'no_iban' | 'invalid_iban' | 'muntly_iban' | 'payer_address_unstructured';

/** Who receives a SEPA payout: its IBAN (or the payer's, for a refund of a bank payment) and a name. */
async function creditorOf(
  tx: Tx,
  payout: PayoutRow,
  account: BankAccountConfig,
  actor: string,
): Promise<{ iban: string; name: string } | { problem: SkipReason }> {
  const payment = await bankRepository.paymentOfPayout(tx, payout);
  const destination = payout.destination ?? payment?.payerIban;
  if (!destination) return { problem: 'no_iban' };
  const checked = sepaIban(destination);
  if (!checked.ok) return { problem: 'invalid_iban' };
  // Muntly paying its own account would move nothing and complete the order: an order placed
  // before its IBAN was refused at placement stays out, for the operator.
  if (sameIban(checked.iban, account.iban)) return { problem: 'muntly_iban' };
  // A transfer that leaves the EEA carries the payer's structured address, which .03's guidelines
  // cannot write (only Ctry and AdrLine, refused by the EPC from 22 November 2026 where the
  // address is required): such a payout waits for a .09 file.
  if (account.painVersion === '03' && leavesEea(checked.iban)) return { problem: 'payer_address_unstructured' };
  // The name the payee's bank checks against the IBAN (verification of payee): the payer's own, as
  // their bank reported it (a refund); else the account holder the customer named on the sell,
  // for its IBAN; else the holder of the customer's verified bank account with this IBAN; else the
  // account's name; else none (the file says NOTPROVIDED).
  if (payment?.payerName && payment.payerIban === checked.iban) return { iban: checked.iban, name: payment.payerName };
  // A new IBAN given for a returned payout comes with its holder's name.
  const reissued = await holderNameOfReissue(tx, payout.id);
  if (reissued) return { iban: checked.iban, name: reissued };
  const order = payout.orderId ? await findOrderById(tx, payout.orderId) : undefined;
  if (order?.beneficiary && order.address === checked.iban) return { iban: checked.iban, name: order.beneficiary };
  const customer = order?.accountId ? await findAccountById(tx, order.accountId) : undefined;
  const holder = customer
    ? await verifiedBankHolder(tx, customer.id, checked.iban, actor, 'payouts-export')
    : undefined;
  return { iban: checked.iban, name: holder ?? payment?.payerName ?? customer?.displayName ?? '' };
}

function messageIdOf(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `MUNTLY-${stamp}-${randomBytes(2).toString('hex').toUpperCase()}`;
}

/**
 * Every EUR payout that is due, into one pain.001 file, in one transaction: the payouts are
 * locked, written into the file, marked submitted with the file's id, and the file is kept. A
 * payout without a usable IBAN stays out (and due), listed in `skipped`.
 */
export async function exportPayouts(db: Db, input: { account: BankAccountConfig; actor: string; now?: Date }) {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const due = await lockPayoutsForBankFile(tx, EXPORT_BATCH_LIMIT);
    const included: { payout: PayoutRow; iban: string; name: string }[] = [];
    const skipped: { payoutId: string; reason: SkipReason }[] = [];
    for (const payout of due) {
      const creditor = await creditorOf(tx, payout, input.account, input.actor);
      if ('problem' in creditor) skipped.push({ payoutId: payout.id, reason: creditor.problem });
      else included.push({ payout, ...creditor });
    }
    if (included.length === 0) return { export: null, xml: null, skipped };
    const messageId = messageIdOf(now);
    const xml = buildPain001({
      version: input.account.painVersion,
      messageId,
      created: now,
      executionDate: now,
      // Muntly's address goes with every transfer of the file, not only those leaving the EEA: the
      // debtor is one per payment block, the schema and the EPC's guidelines take it for any
      // payee, and it is the company's published address (no one's personal data). One block
      // keeps one booking per file.
      debtor: {
        name: input.account.name,
        iban: compactIban(input.account.iban),
        bic: input.account.bic.trim(),
        address: input.account.address,
      },
      transfers: included.map(({ payout, iban, name }) => ({
        endToEndId: endToEndIdOf(payout.id),
        amount: payout.amount,
        creditorName: name,
        creditorIban: iban,
        remittance: payout.reference ?? '',
      })),
    });
    const total = included.reduce((sum, { payout }) => sum + payout.amount, 0n);
    const batch = await bankRepository.insertExport(tx, {
      messageId,
      payoutCount: included.length,
      total,
      xml,
      createdBy: input.actor,
      createdAt: now,
    });
    await markPayoutsInBankFile(
      tx,
      included.map(({ payout }) => payout.id),
      batch.id,
      now,
    );
    await recordAudit(tx, {
      actor: input.actor,
      action: 'bank.payouts_exported',
      target: batch.id,
      after: {
        messageId,
        format: `pain.001.001.${input.account.painVersion}`,
        payoutIds: included.map(({ payout }) => payout.id),
        total: minorToDecimal(total, 2),
      },
    });
    return { export: bankExportView(batch), xml, skipped };
  });
}

export function bankExportView(row: Omit<BankExportRow, 'xml'>): BankExport {
  return {
    id: row.id,
    messageId: row.messageId,
    payouts: row.payoutCount,
    total: minorToDecimal(row.total, 2),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listBankExports(db: Db, limit: number): Promise<BankExport[]> {
  return (await bankRepository.listExports(db, limit)).map(bankExportView);
}

export async function bankExportFile(db: Db, id: string): Promise<BankExportRow> {
  const row = await bankRepository.findExport(db, id);
  if (!row) throw new DomainError('not_found', 'id');
  return row;
}
