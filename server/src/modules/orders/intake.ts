import { randomBytes } from 'node:crypto';
import { currencyByCode, knownDecimals } from '#domain/currencies';
import { emailLinkKey } from '#domain/customer-key';
import { DomainError } from '#domain/errors';
import { isLanguage } from '#domain/languages';
import { decimalToMinor, eur, minorToDecimal } from '#domain/money';
import { isOpenOrder } from '#domain/orders';
import { quote } from '#domain/quotes';
import { depositReference, findReferences, type FoundReferences } from '#domain/references';
import { sepaIban } from '#domain/sepa';
import { findAccountByKey } from '../accounts/service';
import { recordAudit } from '../audit/service';
import { bookedTransfer, bookedTransfers, systemAccount, transfer, transfersAtOnce } from '../ledger/service';
import { send, emailText } from '../notify/service';
import { ordersRepository, type OrderRow } from './repository';
import { newReference } from './service';
import type { Db, Tx } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

/**
 * Order intake: money arrives (a bank payment, crypto at the order's receiving address, or
 * the customer's own Muntly wallet at ordering), then a worker converts it at the rate of that
 * moment and delivers it, or refunds it. Every movement is a ledger transfer whose id is derived
 * from the order, so a retry never moves money twice. States: new (waiting for the money) →
 * processing (money here, waiting for the worker) → completed_success | completed_failure.
 *
 * This file takes the money in (and expires orders nobody paid); settlement.ts converts and
 * delivers it.
 */

/** A payment as the bank reports it; `payerIban`: the account it came from, when the statement names it. */
type BankPayment = { reason: string; amount: string; txid?: string; fromBusinessAccount?: boolean; payerIban?: string };

const unmatchedPayment = () =>
  new DomainError('not_found', 'reason', 'No open order or account matches this payment reason.');

/** What the audit trail keeps of an order that money came in for (amounts in its currency, as decimal strings). */
function paymentState(order: OrderRow) {
  const decimals = knownDecimals(order.currencyFrom);
  return {
    type: order.type,
    status: order.status,
    amountReceived: order.amountReceived === null ? null : minorToDecimal(order.amountReceived, decimals),
    currency: order.currencyFrom,
    businessHold: order.businessHold,
  };
}

/**
 * A SEPA payment arrived on the house account (the bank adapter calls this; locally
 * `npm run ops -- payment-received <reason> <amountEUR>`). Its reason names either a buy order
 * (shortReference) or a wallet deposit (DEPOSIT + accountKey + optional currency). The bank's
 * transaction id makes a reported payment count once. `actor`: the operator who booked it, for
 * the audit trail (a repeated report is written too, as not credited).
 */
export async function bankPaymentReceived(
  db: Db,
  rates: RatesAdapter,
  payment: BankPayment,
  actor?: string,
): Promise<{ order: OrderRow; created: boolean }> {
  const amount = decimalToMinor(payment.amount.trim(), 2);
  if (amount === null || amount <= 0n) throw new DomainError('invalid_amount', 'amount');
  const txid = payment.txid ?? randomBytes(16).toString('hex');
  const transferId = `bank-payment:${txid}`;

  return db.transaction(async (tx) => {
    const audit = async (order: OrderRow, before: OrderRow | null, credited: boolean) => {
      if (actor)
        await recordAudit(tx, {
          actor,
          action: 'payment.received',
          target: order.reference,
          before: before && paymentState(before),
          after: { ...paymentState(order), credited, txid },
        });
    };
    const booked = await bookedTransfer(tx, transferId);
    if (booked) {
      const order = await ordersRepository.findById(
        tx,
        String((booked.metadata as { orderId?: string } | null)?.orderId ?? ''),
      );
      if (!order) throw new DomainError('idempotency_conflict');
      await audit(order, order, false);
      return { order, created: false };
    }
    const named = await namedBy(
      tx,
      findReferences(payment.reason, (code) => !!currencyByCode(code)),
    );
    const deposit = 'deposit' in named ? named.deposit : null;
    const order = deposit
      ? await openDepositOrder(tx, rates, deposit, amount, transferId)
      : (named as { order: OrderRow }).order;
    await transfer(tx, {
      id: transferId,
      currency: 'EUR',
      debitAccountId: (await systemAccount(tx, 'bank', 'EUR')).id,
      creditAccountId: (await systemAccount(tx, 'exchange', 'EUR')).id,
      amount,
      code: 'order_payment',
      metadata: { orderId: order.id, reference: order.reference, reason: payment.reason },
    });
    // An expired order's late payment is taken in and then refunded by the worker (evaluate).
    // Paid from a business account (the statement shows it): marked and held in this same
    // transaction, before the worker can convert it.
    const business = payment.fromBusinessAccount && order.type === 'buy' ? await businessMarks(tx, order) : {};
    // The payer's IBAN links the order to the payer's other orders: the exchange gate counts their
    // week by it when the order is converted, and holds it for an operator past the anonymous cap.
    const payer = payment.payerIban ? sepaIban(payment.payerIban) : null;
    const funded = await ordersRepository.update(tx, order.id, {
      status: 'processing',
      amountReceived: amount,
      fundedAt: new Date(),
      updatedAt: new Date(),
      failureReason: null,
      completedAt: null,
      payerKey: payer?.ok ? payer.iban : null,
      ...business,
    });
    // A deposit's order is opened by this payment: there was nothing before it.
    await audit(funded, deposit ? null : order, true);
    return { order: funded, created: true };
  });
}

/**
 * bankPaymentReceived for many payments at once (a bank statement's), in the caller's
 * transaction: the payments whose reason names one buy order's short reference and nothing else
 * (findReferences, as bankPaymentReceived reads it), that order open to payment, are taken in together — the orders locked in one statement, booked bank → exchange in
 * one, marked processing in one — with the same transfer ids, metadata and order changes as one
 * by one. What it does not take (a deposit reference, a reference booked before, an order another
 * payment of the same batch took, any other reason) it leaves to the caller, who gives it to
 * bankPaymentReceived: that stays the one place that decides everything else. Returns the orders
 * it funded, by the payment's index. A statement import takes hundreds of payments in a few
 * statements this way instead of a dozen each.
 */
export async function bankPaymentsReceivedAtOnce(
  tx: Tx,
  payments: (BankPayment & { txid: string })[],
): Promise<Map<number, OrderRow>> {
  const candidates = payments.flatMap((payment, index) => {
    // The same reading as bankPaymentReceived's (findReferences): taken here only when the reason names one order and nothing else.
    const found = payment.fromBusinessAccount ? null : findReferences(payment.reason, (code) => !!currencyByCode(code));
    const shortReference = found && found.deposits.length === 0 && found.orders.length === 1 ? found.orders[0]! : null;
    const amount = decimalToMinor(payment.amount.trim(), 2);
    return shortReference && amount !== null && amount > 0n
      ? [{ index, payment, shortReference, amount, transferId: `bank-payment:${payment.txid}` }]
      : [];
  });
  const funded = new Map<number, OrderRow>();
  if (candidates.length === 0) return funded;
  const booked = await bookedTransfers(
    tx,
    candidates.map((c) => c.transferId),
  );
  const locked = await ordersRepository.lockPayableBuys(tx, [...new Set(candidates.map((c) => c.shortReference))]);
  // The newest payable order of each short reference, as lockPayableBuy picks it; each taken once.
  const open = new Map<string, OrderRow>();
  for (const order of locked) if (!open.has(order.shortReference)) open.set(order.shortReference, order);
  const taken = candidates.flatMap((c) => {
    const order = booked.has(c.transferId) ? undefined : open.get(c.shortReference);
    if (!order) return [];
    open.delete(c.shortReference);
    const payer = c.payment.payerIban ? sepaIban(c.payment.payerIban) : null;
    return [{ ...c, order, payerKey: payer?.ok ? payer.iban : null }];
  });
  if (taken.length === 0) return funded;
  const [bank, exchange] = [await systemAccount(tx, 'bank', 'EUR'), await systemAccount(tx, 'exchange', 'EUR')];
  await transfersAtOnce(
    tx,
    taken.map((t) => ({
      id: t.transferId,
      currency: 'EUR',
      debitAccountId: bank.id,
      creditAccountId: exchange.id,
      amount: t.amount,
      code: 'order_payment',
      metadata: { orderId: t.order.id, reference: t.order.reference, reason: t.payment.reason },
    })),
  );
  const now = new Date();
  await ordersRepository.fundMany(
    tx,
    taken.map((t) => ({ id: t.order.id, amountReceived: t.amount, payerKey: t.payerKey })),
    now,
  );
  for (const t of taken) {
    funded.set(t.index, {
      ...t.order,
      status: 'processing',
      amountReceived: t.amount,
      fundedAt: now,
      updatedAt: now,
      failureReason: null,
      completedAt: null,
      payerKey: t.payerKey,
    });
  }
  return funded;
}

/** A payment reason that names more than one open order or account: an operator decides (the candidates are shown in the unmatched queue). */
export class AmbiguousReference extends DomainError {
  constructor(readonly candidates: string[]) {
    super(
      'payment_reference_ambiguous',
      'reason',
      `The payment reason names ${candidates.length} open orders or accounts: ${candidates.join(', ')}.`,
    );
  }
}

/**
 * What a payment reason names, when exactly one open buy order (locked) or one account does:
 * the references found anywhere in it (domain/references.ts findReferences) looked up. None is
 * an unmatched payment; several are ambiguous, and no guess is made.
 */
async function namedBy(
  tx: Tx,
  found: FoundReferences,
): Promise<{ order: OrderRow } | { deposit: { accountKey: string; currency?: string } }> {
  const orders = found.orders.length ? await ordersRepository.lockPayableBuys(tx, found.orders) : [];
  const deposits = [];
  for (const deposit of found.deposits) if (await findAccountByKey(tx, deposit.accountKey)) deposits.push(deposit);
  const candidates = [
    ...orders.map((o) => o.shortReference),
    ...deposits.map((d) => depositReference(d.accountKey, d.currency)),
  ];
  // In production an unmatched payment goes to manual review (and back to the sender).
  if (candidates.length === 0) throw unmatchedPayment();
  if (candidates.length > 1) throw new AmbiguousReference(candidates);
  return orders[0] ? { order: orders[0] } : { deposit: deposits[0]! };
}

/** A deposit appears as an order of type deposit: EUR into the wallet, or converted to the named currency. */
async function openDepositOrder(
  tx: Tx,
  rates: RatesAdapter,
  deposit: { accountKey: string; currency?: string },
  amount: bigint,
  idempotencyKey: string,
): Promise<OrderRow> {
  const account = await findAccountByKey(tx, deposit.accountKey);
  if (!account) throw unmatchedPayment();
  // An unknown currency code in the reason: credit the euros as they are rather than refuse them.
  const target = deposit.currency && currencyByCode(deposit.currency) ? deposit.currency : 'EUR';
  const estimate =
    target === 'EUR'
      ? null
      : quote({
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: target,
          amount: eur(amount),
          rates: (await rates.current()).rates,
          toMuntlyWallet: true,
        });
  const known = estimate && typeof estimate === 'object' ? estimate : null;
  const reference = newReference();
  return ordersRepository.insertDeposit(tx, {
    reference,
    shortReference: reference.slice(0, 9),
    type: 'deposit',
    currencyFrom: 'EUR',
    currencyTo: target,
    amount,
    amountEur: amount,
    email: account.email ?? '',
    emailKey: emailLinkKey(account.email ?? ''),
    accountId: account.id,
    sendToMyWallet: true,
    paymentMethod: 'sepa',
    estimatedRate: known?.rate ?? '1',
    estimatedAmountConverted: known ? known.amountConverted.minor : target === 'EUR' ? amount : 0n,
    fee: known ? known.fee.minor : 0n,
    estimatedNetworkFee: known ? known.networkFee.minor : 0n,
    idempotencyKey,
  });
}

type ChainPayment = { currency: string; address: string; amount: bigint; txid: string; sender?: string };

/**
 * Crypto arrived at an order's receiving address (a sell or swap). Called by incoming/service.ts
 * when the address is not a wallet's. Returns null when no order has this address.
 */
export async function chainPaymentReceived(
  db: Db,
  payment: ChainPayment,
): Promise<{ order: OrderRow; created: boolean } | null> {
  const transferId = `chain-deposit:${payment.currency}:${payment.txid}`;
  return db.transaction(async (tx) => {
    const order = await ordersRepository.lockByReceivingAddress(tx, payment.currency, payment.address);
    if (!order) return null;
    if (await bookedTransfer(tx, transferId)) return { order, created: false };
    // Each order has its own address and takes one payment; a later one is for manual review.
    if (order.status !== 'new' && !(order.expiredAt && order.amountReceived === null))
      throw new DomainError('order_not_open', 'address');
    await transfer(tx, {
      id: transferId,
      currency: payment.currency,
      debitAccountId: (await systemAccount(tx, 'chain', payment.currency)).id,
      creditAccountId: (await systemAccount(tx, 'exchange', payment.currency)).id,
      amount: payment.amount,
      code: 'order_payment',
      metadata: { orderId: order.id, reference: order.reference, txid: payment.txid },
    });
    const funded = await ordersRepository.update(tx, order.id, {
      status: 'processing',
      amountReceived: payment.amount,
      failureReason: null,
      completedAt: null,
      senderAddress: payment.sender ?? null,
      fundedAt: new Date(),
      updatedAt: new Date(),
    });
    return { order: funded, created: true };
  });
}

/**
 * Unpaid orders older than `days` expire: completed (failure, reason expired), mailed in the
 * customer's language; so does an order paid from the wallet whose code expired unused (no mail). Nothing was received, so nothing is refunded; a payment that still arrives
 * is taken in and refunded whole. Safe in every replica at once (SKIP LOCKED). Returns how many.
 */
export async function expireUnpaidOrders(db: Db, days: number, now = new Date(), limit = 100): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  return db.transaction(async (tx) => {
    const due = await ordersRepository.lockUnpaidBefore(tx, cutoff, limit, now);
    for (const { id } of due) {
      const expired = await ordersRepository.update(tx, id, {
        status: 'completed_failure',
        failureReason: 'expired',
        expiredAt: now,
        completedAt: now,
        updatedAt: now,
      });
      // An order paid from the wallet whose code expired took nothing: its code email said how long the code lives.
      if (expired.email && !expired.codeHash) {
        const language = isLanguage(expired.language) ? expired.language : 'en';
        const text = emailText(language, 'orderExpired', { reference: expired.reference, days: String(days) });
        await send(tx, {
          channel: 'email',
          recipient: expired.email,
          ...text,
          accountId: expired.accountId ?? undefined,
        });
      }
    }
    return due.length;
  });
}

/**
 * The operator found on the bank statement that a buy was paid from a business account: the order
 * is marked so, and held (funded, not converted) until a business behind it is verified.
 */
export async function markBusinessPayment(db: Db, reference: string, actor: string): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const order = await ordersRepository.lockByReference(tx, reference);
    if (!order) throw new DomainError('not_found', 'reference');
    if (!isOpenOrder(order.status) || order.settledAt) throw new DomainError('order_not_open', 'reference');
    const marked = await ordersRepository.update(tx, order.id, {
      ...(await businessMarks(tx, order)),
      updatedAt: new Date(),
    });
    const state = (o: OrderRow) => ({
      status: o.status,
      fromBusinessAccount: o.fromBusinessAccount,
      businessHold: o.businessHold,
    });
    await recordAudit(tx, {
      actor,
      action: 'payment.business',
      target: order.reference,
      before: state(order),
      after: state(marked),
    });
    return marked;
  });
}

/** A buy paid from a business account is marked so, and held until a business behind it is verified. */
async function businessMarks(tx: Tx, order: OrderRow) {
  return { fromBusinessAccount: true, businessHold: !(await ordersRepository.hasVerifiedBusiness(tx, order.id)) };
}
