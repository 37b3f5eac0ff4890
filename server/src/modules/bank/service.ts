import { randomBytes } from 'node:crypto';
import { IMPORT_OUTCOMES } from '../../../../domain/contracts/bank';
import { DomainError } from '../../../../domain/errors';
import { minorToDecimal } from '../../../../domain/money';
import { sepaIban } from '../../../../domain/sepa';
import { findAccountById } from '../accounts/service';
import { recordAudit } from '../audit/service';
import { orderOutflowGate } from '../gates/service';
import { verifiedBankHolder } from '../identity/service';
import { systemAccount, transfer } from '../ledger/service';
import { bankPaymentReceived } from '../orders/intake';
import { findOrderById, orderReferences } from '../orders/service';
import { bookPayoutResult, findPayout, lockPayoutsForBankFile, markPayoutsInBankFile, requestPayout, type PayoutOutcomes, type PayoutRow } from '../payouts/service';
import { readCamt053, type StatementLine } from './camt';
import { buildPain001 } from './pain';
import { bankRepository, type BankExportRow, type BankPaymentRow } from './repository';
import { holderNameOfReissue, importReturn, type ReturnLinks } from './returns';
import type { BankPaymentStatus } from '../../../../domain/bank';
import type { BankExport, BankPayment, ImportLine, ImportOutcome, ImportStatementResponse } from '../../../../domain/contracts/bank';
import type { Db } from '../../db/client';
import type { PayoutApproval } from '../payouts/approval';
import type { RatesAdapter } from '../rates/service';

/**
 * The operator's bank files (ISO 20022), beside the simulator that local mode keeps
 * (`ops payment-received`):
 *
 * - statement in: a camt.053 statement's credits go through the same intake as
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
export type BankAccountConfig = { iban: string; bic: string; name: string };

/** How many payouts one file takes at most; the rest go in the next. */
const EXPORT_BATCH_LIMIT = 1000;

const bankTransferId = (entryRef: string) => `bank-payment:${entryRef}`;
const compactIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

/** A pain.001 end-to-end id (at most 35 characters): the payout's id without its dashes. */
export const endToEndIdOf = (payoutId: string) => payoutId.replace(/-/g, '');
function payoutIdOf(endToEndId: string | null): string | null {
  const hex = endToEndId?.replace(/-/g, '').toLowerCase() ?? '';
  return /^[0-9a-f]{32}$/.test(hex) ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : null;
}
/** A bank reference as a payout's txid (printable, no spaces: PAYOUT_TXID_PATTERN). */
const txidOf = (entryRef: string) => `bank:${entryRef.replace(/[^A-Za-z0-9:_.-]/g, '_')}`.slice(0, 128);

// ---------------------------------------------------------------------------------------------
// Statement in

export async function importStatement(
  db: Db,
  deps: { rates: RatesAdapter; outcomes: PayoutOutcomes; account: BankAccountConfig; links?: ReturnLinks },
  xml: string,
  actor: string,
): Promise<ImportStatementResponse> {
  const { version, statements } = readCamt053(xml);
  // A statement of another account would credit orders with money Muntly never received.
  const ours = compactIban(deps.account.iban);
  for (const statement of statements) {
    if (statement.iban !== ours) throw new DomainError('statement_wrong_account', 'statement', `This statement is for ${statement.iban ?? 'an account without IBAN'}, not for BANK_IBAN.`);
  }
  const lines: ImportLine[] = [];
  for (const statement of statements) {
    for (const line of statement.lines) {
      const shown = { entryRef: line.ref, direction: line.direction, amount: line.amountText, currency: line.currency, reference: null, paymentId: null, reason: null };
      const skip = !line.booked ? 'not_booked' : line.currency !== 'EUR' ? 'not_eur' : line.amount === null || line.amount <= 0n ? 'invalid_amount' : null;
      if (skip) lines.push({ ...shown, outcome: 'skipped', reason: skip });
      // A payout of Muntly's sent back by the payee's bank (returns.ts), never an ordinary payment.
      else if (line.direction === 'credit' && line.returned) lines.push({ ...shown, ...(await importReturn(db, deps, line, payoutIdOf(line.endToEndId), statement.id, actor)) });
      else if (line.direction === 'credit') lines.push({ ...shown, ...(await importCredit(db, deps.rates, line, statement.id, actor)) });
      else lines.push({ ...shown, ...(await importDebit(db, deps.outcomes, line, actor)) });
    }
  }
  const counts = Object.fromEntries(IMPORT_OUTCOMES.map((o) => [o, lines.filter((l) => l.outcome === o).length])) as Record<ImportOutcome, number>;
  return { version: `camt.053.001.${version}`, statements: statements.map((s) => s.id), lines, counts };
}

type LineResult = Pick<ImportLine, 'outcome' | 'reference' | 'paymentId' | 'reason'>;

/**
 * One credit, in one transaction: the row first (the unique bank reference makes a second import
 * wait for the first and then find it there), then each reason the payer wrote through the
 * intake until one names an open order or a deposit. The intake runs in a savepoint: a reason it
 * refuses leaves nothing behind.
 */
async function importCredit(db: Db, rates: RatesAdapter, line: StatementLine, statementId: string | null, actor: string): Promise<LineResult> {
  return db.transaction(async (tx) => {
    const row = await bankRepository.insertPayment(tx, {
      entryRef: line.ref,
      statementId,
      amount: line.amount!,
      currency: line.currency,
      payerName: line.partyName,
      payerIban: line.partyIban,
      remittance: line.remittance,
      bookingDate: line.bookingDate,
      status: 'open',
    });
    if (!row) return { outcome: 'duplicate', reference: null, paymentId: null, reason: null };
    let unmatchedReason = 'no_reason';
    for (const reason of line.reasons) {
      try {
        const { order } = await bankPaymentReceived(tx, rates, { reason, amount: minorToDecimal(line.amount!, 2), txid: line.ref, payerIban: line.partyIban ?? undefined });
        await bankRepository.updatePayment(tx, row.id, { status: 'matched', orderId: order.id });
        await recordAudit(tx, {
          actor,
          action: 'bank.payment_matched',
          target: order.reference,
          after: { bankPaymentId: row.id, entryRef: row.entryRef, orderReference: order.reference, amount: minorToDecimal(row.amount, 2) },
        });
        return { outcome: 'booked', reference: order.reference, paymentId: row.id, reason: null };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        unmatchedReason = error.code;
      }
    }
    await bankRepository.updatePayment(tx, row.id, { unmatchedReason });
    await recordAudit(tx, { actor, action: 'bank.payment_unmatched', target: row.id, after: { entryRef: row.entryRef, amount: minorToDecimal(row.amount, 2), unmatchedReason } });
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
  if (payout.status === 'returned') return { ...none, outcome: 'duplicate', reference: payout.id, reason: 'payout_returned' };
  if (payout.amount !== line.amount || payout.currency !== line.currency) return { ...none, outcome: 'skipped', reference: payout.id, reason: 'amount_differs' };
  try {
    const booked = await db.transaction(async (tx) => {
      const result = await bookPayoutResult(tx, outcomes, { id: payout.id, result: { status: 'completed', txid: txidOf(line.ref) } });
      if (result.booked) await recordAudit(tx, { actor, action: 'bank.payout_completed', target: payout.id, after: { status: 'completed', entryRef: line.ref } });
      return result.booked;
    });
    return { ...none, outcome: booked ? 'payout_completed' : 'duplicate', reference: payout.id, reason: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ...none, outcome: 'skipped', reference: payout.id, reason: error.code };
  }
}

// ---------------------------------------------------------------------------------------------
// The unmatched queue

export async function listBankPayments(db: Db, filter: { status: BankPaymentStatus | 'all'; limit: number }): Promise<BankPayment[]> {
  const rows = await bankRepository.listPayments(db, { status: filter.status === 'all' ? undefined : filter.status, limit: filter.limit });
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

async function lockOpenPayment(tx: Db, id: string): Promise<BankPaymentRow> {
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
export async function assignBankPayment(db: Db, rates: RatesAdapter, input: { id: string; target: string; actor: string }) {
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
    return { payment: bankPaymentView(assigned, order.reference), order: { reference: order.reference, type: order.type, status: order.status } };
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
    const refunded = await bankRepository.updatePayment(tx, payment.id, { status: 'refunded', resolution: `refunded (payout ${payout.id})`, resolvedBy: input.actor, resolvedAt: new Date() });
    await recordAudit(tx, {
      actor: input.actor,
      action: 'bank.payment_refunded',
      target: payment.id,
      before: { status: payment.status },
      after: { status: refunded.status, entryRef: payment.entryRef, payoutId: payout.id },
    });
    return {
      payment: bankPaymentView(refunded, null),
      payout: { id: payout.id, status: payout.status, amount: minorToDecimal(payout.amount, 2), currency: payout.currency, destination: payout.destination! },
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

/** Who receives a SEPA payout: its IBAN (or the payer's, for a refund of a bank payment) and a name. */
async function creditorOf(tx: Db, payout: PayoutRow, actor: string): Promise<{ iban: string; name: string } | { problem: 'no_iban' | 'invalid_iban' }> {
  const payment = await bankRepository.paymentOfPayout(tx, payout);
  const destination = payout.destination ?? payment?.payerIban;
  if (!destination) return { problem: 'no_iban' };
  const checked = sepaIban(destination);
  if (!checked.ok) return { problem: 'invalid_iban' };
  // The name the payee's bank checks against the IBAN (verification of payee): the payer's own, as
  // their bank reported it; else the holder of the customer's verified bank account with this
  // IBAN; else the account's name; else none (the file says NOTPROVIDED).
  if (payment?.payerName && payment.payerIban === checked.iban) return { iban: checked.iban, name: payment.payerName };
  // A new IBAN given for a returned payout comes with its holder's name.
  const reissued = await holderNameOfReissue(tx, payout.id);
  if (reissued) return { iban: checked.iban, name: reissued };
  const order = payout.orderId ? await findOrderById(tx, payout.orderId) : undefined;
  const account = order?.accountId ? await findAccountById(tx, order.accountId) : undefined;
  const holder = account ? await verifiedBankHolder(tx, account.id, checked.iban, actor, 'payouts-export') : undefined;
  return { iban: checked.iban, name: holder ?? payment?.payerName ?? account?.displayName ?? '' };
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
    const skipped: { payoutId: string; reason: string }[] = [];
    for (const payout of due) {
      const creditor = await creditorOf(tx, payout, input.actor);
      if ('problem' in creditor) skipped.push({ payoutId: payout.id, reason: creditor.problem });
      else included.push({ payout, ...creditor });
    }
    if (included.length === 0) return { export: null, xml: null, skipped };
    const messageId = messageIdOf(now);
    const xml = buildPain001({
      messageId,
      created: now,
      executionDate: now,
      debtor: { name: input.account.name, iban: compactIban(input.account.iban), bic: input.account.bic.trim() },
      transfers: included.map(({ payout, iban, name }) => ({
        endToEndId: endToEndIdOf(payout.id),
        amount: payout.amount,
        creditorName: name,
        creditorIban: iban,
        remittance: payout.reference ?? '',
      })),
    });
    const total = included.reduce((sum, { payout }) => sum + payout.amount, 0n);
    const batch = await bankRepository.insertExport(tx, { messageId, payoutCount: included.length, total, xml, createdBy: input.actor, createdAt: now });
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
      after: { messageId, payoutIds: included.map(({ payout }) => payout.id), total: minorToDecimal(total, 2) },
    });
    return { export: bankExportView(batch), xml, skipped };
  });
}

export function bankExportView(row: Omit<BankExportRow, 'xml'>): BankExport {
  return { id: row.id, messageId: row.messageId, payouts: row.payoutCount, total: minorToDecimal(row.total, 2), createdBy: row.createdBy, createdAt: row.createdAt.toISOString() };
}

export async function listBankExports(db: Db, limit: number): Promise<BankExport[]> {
  return (await bankRepository.listExports(db, limit)).map(bankExportView);
}

export async function bankExportFile(db: Db, id: string): Promise<BankExportRow> {
  const row = await bankRepository.findExport(db, id);
  if (!row) throw new DomainError('not_found', 'id');
  return row;
}
