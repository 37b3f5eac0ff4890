import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, exists, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { currencyByCode, decimalsOf } from '../../../../domain/currencies';
import { DomainError } from '../../../../domain/errors';
import { isLanguage } from '../../../../domain/languages';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import { decimalToMinor, eur, exactMinor, minorToDecimal } from '../../../../domain/money';
import { isOpenOrder, type FailureReason, type Refund } from '../../../../domain/orders';
import { quote, type Quote } from '../../../../domain/quotes';
import { parseDepositReference } from '../../../../domain/references';
import { accounts, ledgerTransfers, orders, verifications } from '../../db/schema';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { send, messageText, phrase } from '../notify/service';
import { requestPayout, type PayoutOutcomes } from '../payouts/service';
import { hasCompletedOrder, newReference, orderMoney, type OrderRow } from './service';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

/**
 * Order processing: money arrives (a bank payment, crypto at the order's receiving address, or
 * the customer's own Muntly wallet at ordering), then a worker converts it at the rate of that
 * moment and delivers it, or refunds it. Every movement is a ledger transfer whose id is derived
 * from the order, so a retry never moves money twice. States: new (waiting for the money) →
 * processing (money here, waiting for the worker) → completed_success | completed_failure.
 *
 * The worker is safe with several API replicas on one PostgreSQL: each takes an order with
 * FOR UPDATE SKIP LOCKED and settles it in the same transaction, so no order is settled twice.
 * Money that leaves Muntly (to an address or an IBAN) goes through the payout pipeline: settling
 * only books it, the payout worker pays it outside any transaction (server/src/modules/payouts).
 */
/** A quote's decimal string in the minor units of `code`, exactly (a quote never has more decimals). */
const toMinor = (value: string, code: string) => exactMinor(value, decimalsOf(code)!);

/** The bank's payment reason for an order: its shortReference, in any case, spaces or dashes optional. */
export function parseShortReference(reason: string): string | null {
  const letters = reason.toUpperCase().replace(/[\s-]+/g, '');
  return /^[A-Z]{8}$/.test(letters) ? `${letters.slice(0, 4)}-${letters.slice(4)}` : null;
}

type BankPayment = { reason: string; amount: string; txid?: string };

const unmatchedPayment = () => new DomainError('not_found', 'reason', 'No open order or account matches this payment reason.');

/**
 * A SEPA payment arrived on the house account (the bank adapter calls this; locally
 * `npm run ops -- payment-received <reason> <amountEUR>`). Its reason names either a buy order
 * (shortReference) or a wallet deposit (DEPOSIT + accountKey + optional currency). The bank's
 * transaction id makes a reported payment count once.
 */
export async function bankPaymentReceived(db: Db, rates: RatesAdapter, payment: BankPayment): Promise<{ order: OrderRow; created: boolean }> {
  const amount = decimalToMinor(payment.amount.trim(), 2);
  if (amount === null || amount <= 0n) throw new DomainError('invalid_amount', 'amount');
  const txid = payment.txid ?? randomBytes(16).toString('hex');
  const transferId = `bank-payment:${txid}`;

  return db.transaction(async (tx) => {
    const [booked] = await tx.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, transferId));
    if (booked) {
      const [order] = await tx
        .select()
        .from(orders)
        .where(eq(orders.id, String((booked.metadata as { orderId?: string } | null)?.orderId ?? '')));
      if (order) return { order, created: false };
      throw new DomainError('idempotency_conflict');
    }
    const deposit = parseDepositReference(payment.reason);
    const order = deposit ? await openDepositOrder(tx, rates, deposit, amount, transferId) : await lockBuyOrder(tx, payment.reason);
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
    const [funded] = await tx
      .update(orders)
      .set({ status: 'processing', amountReceived: amount, fundedAt: new Date(), updatedAt: new Date(), failureReason: null, completedAt: null })
      .where(eq(orders.id, order.id))
      .returning();
    return { order: funded!, created: true };
  });
}

async function lockBuyOrder(tx: Db, reason: string): Promise<OrderRow> {
  const shortReference = parseShortReference(reason);
  const [order] = shortReference
    ? await tx
        .select()
        .from(orders)
        .where(and(eq(orders.shortReference, shortReference), eq(orders.type, 'buy'), or(eq(orders.status, 'new'), expiredUnpaid), eq(orders.useMyWallet, false)))
        .orderBy(desc(orders.createdAt))
        .limit(1)
        .for('update')
    : [];
  // In production an unmatched payment goes to manual review (and back to the sender).
  if (!order) throw unmatchedPayment();
  return order;
}

/** A deposit appears as an order of type deposit: EUR into the wallet, or converted to the named currency. */
async function openDepositOrder(tx: Db, rates: RatesAdapter, deposit: { accountKey: string; currency?: string }, amount: bigint, idempotencyKey: string): Promise<OrderRow> {
  const [account] = await tx.select().from(accounts).where(eq(accounts.accountKey, deposit.accountKey));
  if (!account) throw unmatchedPayment();
  // An unknown currency code in the reason: credit the euros as they are rather than refuse them.
  const target = deposit.currency && currencyByCode(deposit.currency) ? deposit.currency : 'EUR';
  const estimate = target === 'EUR' ? null : quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: target, amount: eur(amount), rates: (await rates.current()).rates, toMuntlyWallet: true });
  const known = estimate && typeof estimate === 'object' ? estimate : null;
  const reference = newReference();
  const [order] = await tx
    .insert(orders)
    .values({
      reference,
      shortReference: reference.slice(0, 9),
      type: 'deposit',
      currencyFrom: 'EUR',
      currencyTo: target,
      amount,
      amountEur: amount,
      email: account.email ?? '',
      accountId: account.id,
      sendToMyWallet: true,
      paymentMethod: 'sepa',
      estimatedRate: known?.rate ?? '1',
      estimatedAmountConverted: known ? toMinor(known.amountConverted, target) : target === 'EUR' ? amount : 0n,
      fee: known ? toMinor(known.fee, 'EUR') : 0n,
      estimatedNetworkFee: known ? toMinor(known.networkFee, target) : 0n,
      idempotencyKey,
    })
    .returning();
  return order!;
}

type ChainPayment = { currency: string; address: string; amount: bigint; txid: string; sender?: string };

/**
 * Crypto arrived at an order's receiving address (a sell or swap). Called by incoming/service.ts
 * when the address is not a wallet's. Returns null when no order has this address.
 */
export async function chainPaymentReceived(db: Db, payment: ChainPayment): Promise<{ order: OrderRow; created: boolean } | null> {
  const transferId = `chain-deposit:${payment.currency}:${payment.txid}`;
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.receivingAddress, payment.address), eq(orders.currencyFrom, payment.currency)))
      .for('update');
    if (!order) return null;
    const [booked] = await tx.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.id, transferId));
    if (booked) return { order, created: false };
    // Each order has its own address and takes one payment; a later one is for manual review.
    if (order.status !== 'new' && !(order.expiredAt && order.amountReceived === null)) throw new DomainError('order_not_open', 'address');
    await transfer(tx, {
      id: transferId,
      currency: payment.currency,
      debitAccountId: (await systemAccount(tx, 'chain', payment.currency)).id,
      creditAccountId: (await systemAccount(tx, 'exchange', payment.currency)).id,
      amount: payment.amount,
      code: 'order_payment',
      metadata: { orderId: order.id, reference: order.reference, txid: payment.txid },
    });
    const [funded] = await tx
      .update(orders)
      .set({
        status: 'processing',
        amountReceived: payment.amount,
        failureReason: null,
        completedAt: null,
        senderAddress: payment.sender ?? null,
        fundedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(orders.id, order.id))
      .returning();
    return { order: funded!, created: true };
  });
}

/** A completed_failure order that expired before anyone paid it. */
const expiredUnpaid = and(eq(orders.status, 'completed_failure'), isNotNull(orders.expiredAt), isNull(orders.amountReceived));

/**
 * Unpaid orders older than `days` expire: completed (failure, reason expired), mailed in the
 * customer's language. Nothing was received, so nothing is refunded; a payment that still arrives
 * is taken in and refunded whole. Safe in every replica at once (SKIP LOCKED). Returns how many.
 */
export async function expireUnpaidOrders(db: Db, days: number, now = new Date(), limit = 100): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, 'new'), lt(orders.createdAt, cutoff)))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const { id } of due) {
      const [expired] = await tx.update(orders).set({ status: 'completed_failure', failureReason: 'expired', expiredAt: now, completedAt: now, updatedAt: now }).where(eq(orders.id, id)).returning();
      if (expired?.email) {
        const language = isLanguage(expired.language) ? expired.language : 'en';
        const text = messageText(language, 'orderExpired', { reference: expired.reference, days: String(days) });
        await send(tx, { channel: 'email', recipient: expired.email, ...text, accountId: expired.accountId ?? undefined });
      }
    }
    return due.length;
  });
}

/** Whether a verified business stands behind the order: its account's, or that of an account with its email. */
function verifiedBusiness(q: Db) {
  return exists(
    q
      .select({ one: verifications.accountId })
      .from(verifications)
      .innerJoin(accounts, eq(accounts.id, verifications.accountId))
      .where(and(eq(verifications.kind, 'business'), eq(verifications.phase, 'verified'), or(eq(accounts.id, orders.accountId), eq(accounts.email, orders.email)))),
  );
}

/**
 * The operator found on the bank statement that a buy was paid from a business account: the order
 * is marked so, and held (funded, not converted) until a business behind it is verified.
 */
export async function markBusinessPayment(db: Db, reference: string): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.reference, reference)).for('update');
    if (!order) throw new DomainError('not_found', 'reference');
    if (!isOpenOrder(order.status) || order.settledAt) throw new DomainError('order_not_open', 'reference');
    const [verified] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, order.id), verifiedBusiness(tx)));
    const [marked] = await tx.update(orders).set({ fromBusinessAccount: true, businessHold: !verified, updatedAt: new Date() }).where(eq(orders.id, order.id)).returning();
    return marked!;
  });
}

/** Orders held for a business whose verification has since been done go on. */
async function releaseBusinessHolds(db: Db): Promise<void> {
  await db
    .update(orders)
    .set({ businessHold: false, updatedAt: new Date() })
    .where(and(eq(orders.businessHold, true), verifiedBusiness(db)));
}

/** Settles funded orders until none is waiting (or `limit` were settled). Returns how many. */
export async function processOrders(db: Db, deps: { rates: RatesAdapter }, limit = 100): Promise<number> {
  await releaseBusinessHolds(db);
  let settled = 0;
  while (settled < limit) {
    const done = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.status, 'processing'), isNull(orders.settledAt), eq(orders.businessHold, false)))
        .orderBy(asc(orders.fundedAt))
        .limit(1)
        .for('update', { skipLocked: true });
      const id = claimed?.id;
      if (!id) return false;
      const [order] = await tx.select().from(orders).where(eq(orders.id, id));
      await settle(tx, deps, order!);
      return true;
    });
    if (!done) break;
    settled++;
  }
  return settled;
}

type Outcome = { ok: true; quote: Quote } | { ok: false; reason: FailureReason };

async function evaluate(tx: Db, rates: RatesAdapter, order: OrderRow): Promise<Outcome> {
  // Paid after it expired: nothing is converted, the payment goes back whole.
  if (order.expiredAt) return { ok: false, reason: 'expired' };
  const received = order.amountReceived!;
  const current = (await rates.current()).rates;
  if (order.type === 'deposit') {
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, order.accountId!));
    if (received > account!.depositLimitEurMinor) return { ok: false, reason: 'deposit_limit' };
    if (order.currencyTo === 'EUR') {
      return { ok: true, quote: { rate: '1', fee: '0.00', feeCurrency: 'EUR', networkFee: '0.00', networkFeeCurrency: 'EUR', amountConverted: eur(received), amountEur: eur(received) } };
    }
  } else if (received !== order.amount) {
    // A floating order converts what was ordered; a different amount goes back, whole.
    return { ok: false, reason: 'amount_mismatch' };
  }
  const estimate = quote({
    type: order.type === 'deposit' ? 'buy' : order.type,
    currencyFrom: order.currencyFrom,
    currencyTo: order.currencyTo,
    amount: minorToDecimal(received, decimalsOf(order.currencyFrom)!),
    rates: current,
    toMuntlyWallet: order.sendToMyWallet || order.type === 'deposit',
  });
  // No rate now: leave the order waiting; the next run tries again.
  if (estimate === 'rate_unavailable') throw new DomainError('try_again_soon');
  if (estimate === 'invalid_pair' || estimate === 'invalid_amount' || estimate === 'amount_below_minimum_fee') return { ok: false, reason: 'invalid_amount' };
  if (estimate === 'network_fee_exceeds_amount') return { ok: false, reason: estimate };
  if (toMinor(estimate.amountEur, 'EUR') > ORDER_LIMIT_EUR_MINOR) return { ok: false, reason: 'order_limit' };
  // Checked again now that the money is here: a customer still new (no order of theirs completed
  // successfully since this one was placed) gets back an order above the first-order cap, whole.
  if (toMinor(estimate.amountEur, 'EUR') > FIRST_ORDER_LIMIT_EUR_MINOR && !(await hasCompletedOrder(tx, order, order.id))) return { ok: false, reason: 'first_order_limit' };
  return { ok: true, quote: estimate };
}

/**
 * Converts a funded order at the rate of this moment and books its delivery, in the worker's
 * transaction: into the wallet (done at once), or held for a payout to the customer's address or
 * IBAN — the order then completes when the payout does (`orderPayoutOutcomes`). An order that
 * cannot be converted is refunded whole.
 */
async function settle(tx: Db, deps: { rates: RatesAdapter }, order: OrderRow): Promise<void> {
  const outcome = await evaluate(tx, deps.rates, order);
  const exchange = (code: string) => systemAccount(tx, 'exchange', code);
  const meta = { orderId: order.id, reference: order.reference };
  const now = new Date();
  if (!outcome.ok) {
    await fail(tx, order, outcome.reason);
    return;
  }
  const { quote: q } = outcome;
  const to = order.currencyTo;
  const fee = toMinor(q.fee, 'EUR');
  if (fee > 0n) {
    await transfer(tx, {
      id: `order-fee:${order.id}`,
      currency: 'EUR',
      debitAccountId: (await exchange('EUR')).id,
      creditAccountId: (await systemAccount(tx, 'fees', 'EUR')).id,
      amount: fee,
      code: 'fee',
      metadata: meta,
    });
  }
  const converted = toMinor(q.amountConverted, to);
  const actual = { actualRate: q.rate, actualAmountConverted: converted, actualNetworkFee: toMinor(q.networkFee, to), actualFee: fee, settledAt: now, updatedAt: now };
  if (order.sendToMyWallet || order.type === 'deposit') {
    await transfer(tx, {
      id: `order-delivery:${order.id}`,
      currency: to,
      debitAccountId: (await exchange(to)).id,
      creditAccountId: (await userAccount(tx, order.accountId!, to)).id,
      amount: converted,
      code: 'order',
      metadata: { ...meta, label: order.type },
    });
    const [done] = await tx
      .update(orders)
      .set({ ...actual, status: 'completed_success', completedAt: now })
      .where(eq(orders.id, order.id))
      .returning();
    await notifyCompleted(tx, done!);
    return;
  }
  const networkFee = to === 'EUR' ? 0n : actual.actualNetworkFee;
  await requestPayout(tx, {
    rail: to === 'EUR' ? 'bank' : 'chain',
    purpose: 'order_delivery',
    orderId: order.id,
    currency: to,
    destination: order.address!,
    reference: to === 'EUR' ? order.shortReference : null,
    amount: converted,
    networkFee,
    sourceAccountId: (await exchange(to)).id,
    idempotencyKey: `order-delivery:${order.id}`,
    holds: [
      { id: `order-delivery:${order.id}`, amount: converted, code: 'payout', metadata: { ...meta, destination: order.address } },
      { id: `order-network-fee:${order.id}`, amount: networkFee, code: 'network_fee', metadata: meta },
    ],
  });
  await tx.update(orders).set(actual).where(eq(orders.id, order.id));
}

/** The order cannot be delivered: the whole amount received goes back, and the customer is told why. */
async function fail(tx: Db, order: OrderRow, reason: FailureReason): Promise<void> {
  const now = new Date();
  const refund = await refundOrder(tx, order);
  const [failed] = await tx
    .update(orders)
    .set({ status: 'completed_failure', failureReason: reason, refund, settledAt: order.settledAt ?? now, completedAt: now, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  await notifyCompleted(tx, failed!);
}

/** What an order's payouts mean for it (the payout worker books them). */
export const orderPayoutOutcomes: Pick<PayoutOutcomes, 'order_delivery' | 'order_refund'> = {
  order_delivery: {
    async completed(tx, payout) {
      const now = new Date();
      const [done] = await tx
        .update(orders)
        .set({ status: 'completed_success', payoutTxid: payout.txid, completedAt: now, updatedAt: now })
        .where(and(eq(orders.id, payout.orderId!), eq(orders.status, 'processing')))
        .returning();
      if (done) await notifyCompleted(tx, done);
    },
    async failed(tx, payout) {
      // The payout gave the converted amount back to the exchange; the fee goes back too, and
      // the customer gets back what they paid.
      const [order] = await tx.select().from(orders).where(eq(orders.id, payout.orderId!)).for('update');
      if (!order || order.status !== 'processing') return;
      const fee = order.actualFee ?? 0n;
      if (fee > 0n) {
        await transfer(tx, {
          id: `order-fee-return:${order.id}`,
          currency: 'EUR',
          debitAccountId: (await systemAccount(tx, 'fees', 'EUR')).id,
          creditAccountId: (await systemAccount(tx, 'exchange', 'EUR')).id,
          amount: fee,
          code: 'fee',
          metadata: { orderId: order.id, reference: order.reference },
        });
      }
      await fail(tx, order, 'payout_failed');
    },
  },
  // A refund that could not be paid stays with the exchange, listed as a failed payout for the
  // operator; the order already told the customer it was refunded.
  order_refund: { completed: async () => undefined, failed: async () => undefined },
};

/** The whole amount received goes back where it came from: the wallet at once, a bank or an address by payout. */
async function refundOrder(tx: Db, order: OrderRow): Promise<Refund> {
  const from = order.currencyFrom;
  const amount = order.amountReceived!;
  const exchange = (await systemAccount(tx, 'exchange', from)).id;
  const meta = { orderId: order.id, reference: order.reference, label: 'refund' };
  if (order.useMyWallet) {
    await transfer(tx, {
      id: `order-refund:${order.id}`,
      currency: from,
      debitAccountId: exchange,
      creditAccountId: (await userAccount(tx, order.accountId!, from)).id,
      amount,
      code: 'order',
      metadata: meta,
    });
    return 'wallet';
  }
  const bank = from === 'EUR';
  await requestPayout(tx, {
    rail: bank ? 'bank' : 'chain',
    purpose: 'order_refund',
    orderId: order.id,
    currency: from,
    // A bank payment goes back to the account it came from (the bank knows it); crypto to the
    // address it was sent from, when the chain reported one.
    destination: bank ? null : order.senderAddress,
    reference: bank ? order.shortReference : null,
    amount,
    networkFee: 0n,
    sourceAccountId: exchange,
    idempotencyKey: `order-refund:${order.id}`,
    holds: [{ id: `order-refund:${order.id}`, amount, code: 'refund', metadata: { ...meta, address: order.senderAddress } }],
  });
  return bank ? 'bank' : 'sender';
}

async function notifyCompleted(tx: Db, order: OrderRow): Promise<void> {
  if (!order.email) return;
  const language = isLanguage(order.language) ? order.language : 'en';
  const success = order.status === 'completed_success';
  const money = orderMoney(order);
  const text = messageText(language, success ? 'orderCompleted' : 'orderFailed', {
    reference: order.reference,
    amount: money.actualAmountConverted ?? '',
    currency: order.currencyTo,
    received: money.amountReceived ?? '',
    currencyFrom: order.currencyFrom,
    reason: order.failureReason ? phrase(language, 'failureReasons', order.failureReason) : '',
    refund: order.refund ? phrase(language, 'refunds', order.refund) : '',
  });
  await send(tx, { channel: 'email', recipient: order.email, ...text, accountId: order.accountId ?? undefined });
}
