import { decimalsOf, exactMinorIn } from '../../../../domain/currencies';
import { DomainError } from '../../../../domain/errors';
import { isLanguage } from '../../../../domain/languages';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import { eur, minorToDecimal } from '../../../../domain/money';
import { type FailureReason, type Refund } from '../../../../domain/orders';
import { quote, type Quote } from '../../../../domain/quotes';
import { findAccountById } from '../accounts/service';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { formatMoney, send, emailText, phrase } from '../notify/service';
import { requestPayout, type PayoutOutcomes } from '../payouts/service';
import { ordersRepository, type OrderRow } from './repository';
import { hasCompletedOrder } from './service';
import { orderMoney } from './views';
import type { Db } from '../../db/client';
import type { PayoutApproval } from '../payouts/approval';
import type { RatesAdapter } from '../rates/service';

/**
 * Order settlement: a worker converts a funded order at the rate of that moment and delivers it,
 * or refunds it whole. Every movement is a ledger transfer whose id is derived from the order, so
 * a retry never moves money twice.
 *
 * The worker is safe with several API replicas on one PostgreSQL: each takes an order with
 * FOR UPDATE SKIP LOCKED and settles it in the same transaction, so no order is settled twice.
 * Money that leaves Muntly (to an address or an IBAN) goes through the payout pipeline: settling
 * only books it, the payout worker pays it outside any transaction (server/src/modules/payouts).
 */
type SettlementDeps = { rates: RatesAdapter; approval: PayoutApproval };

/** Settles funded orders until none is waiting (or `limit` were settled). Returns how many. */
export async function processOrders(db: Db, deps: SettlementDeps, limit = 100): Promise<number> {
  // Orders held for a business whose verification has since been done go on.
  await ordersRepository.releaseBusinessHolds(db);
  let settled = 0;
  while (settled < limit) {
    const done = await db.transaction(async (tx) => {
      const order = await ordersRepository.claimNextFunded(tx);
      if (!order) return false;
      await settle(tx, deps, order);
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
    const account = await findAccountById(tx, order.accountId!);
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
  if (exactMinorIn(estimate.amountEur, 'EUR') > ORDER_LIMIT_EUR_MINOR) return { ok: false, reason: 'order_limit' };
  // Checked again now that the money is here: a customer still new (no order of theirs completed
  // successfully since this one was placed) gets back an order above the first-order cap, whole.
  if (exactMinorIn(estimate.amountEur, 'EUR') > FIRST_ORDER_LIMIT_EUR_MINOR && !(await hasCompletedOrder(tx, order, order.id))) return { ok: false, reason: 'first_order_limit' };
  return { ok: true, quote: estimate };
}

/**
 * Converts a funded order at the rate of this moment and books its delivery, in the worker's
 * transaction: into the wallet (done at once), or held for a payout to the customer's address or
 * IBAN — the order then completes when the payout does (`orderPayoutOutcomes`). An order that
 * cannot be converted is refunded whole.
 */
async function settle(tx: Db, deps: SettlementDeps, order: OrderRow): Promise<void> {
  const outcome = await evaluate(tx, deps.rates, order);
  const exchange = (code: string) => systemAccount(tx, 'exchange', code);
  const meta = { orderId: order.id, reference: order.reference };
  const now = new Date();
  if (!outcome.ok) {
    await fail(tx, order, outcome.reason, { policy: deps.approval });
    return;
  }
  const { quote: q } = outcome;
  const to = order.currencyTo;
  const fee = exactMinorIn(q.fee, 'EUR');
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
  const converted = exactMinorIn(q.amountConverted, to);
  const actual = { actualRate: q.rate, actualAmountConverted: converted, actualNetworkFee: exactMinorIn(q.networkFee, to), actualFee: fee, settledAt: now, updatedAt: now };
  if (order.sendToMyWallet || order.type === 'deposit') {
    await transfer(tx, {
      id: `order-delivery:${order.id}`,
      currency: to,
      debitAccountId: (await exchange(to)).id,
      creditAccountId: (await userAccount(tx, order.accountId!, to)).id,
      amount: converted,
      code: 'order',
      // Worth what was paid less the fee, at the rate applied: the row's own EUR value.
      metadata: { ...meta, label: order.type, eurValue: eur(exactMinorIn(q.amountEur, 'EUR') - fee) },
    });
    await notifyCompleted(tx, await ordersRepository.update(tx, order.id, { ...actual, status: 'completed_success', completedAt: now }));
    return;
  }
  const networkFee = to === 'EUR' ? 0n : actual.actualNetworkFee;
  const payout = await requestPayout(tx, {
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
    approval: { policy: deps.approval, accountId: order.accountId },
  });
  await ordersRepository.update(tx, order.id, { ...actual, payoutAwaitingApproval: payout.status === 'awaiting_approval' });
}

/** How a refund payout is judged for approval: by the policy, and by who caused it (an operator rejecting the delivery). */
type RefundApproval = { policy: PayoutApproval; triggeredBy?: string | null };

/** The order cannot be delivered: the whole amount received goes back, and the customer is told why. */
async function fail(tx: Db, order: OrderRow, reason: FailureReason, approval: RefundApproval): Promise<void> {
  const now = new Date();
  const { refund, awaitingApproval } = await refundOrder(tx, order, approval);
  const failed = await ordersRepository.update(tx, order.id, {
    status: 'completed_failure',
    failureReason: reason,
    refund,
    payoutAwaitingApproval: awaitingApproval,
    settledAt: order.settledAt ?? now,
    completedAt: now,
    updatedAt: now,
  });
  await notifyCompleted(tx, failed);
}

/** A payout of the order was approved by two operators: the order page stops saying it waits. */
async function payoutApproved(tx: Db, payout: { orderId: string | null }): Promise<void> {
  await ordersRepository.update(tx, payout.orderId!, { payoutAwaitingApproval: false, updatedAt: new Date() });
}

/**
 * What an order's payouts mean for it (the payout worker books them). A delivery that fails
 * (refused, or rejected by an operator) is refunded by a new payout, judged by `approval` like any
 * other; one an operator rejected counts as triggered by that operator.
 */
export const orderPayoutOutcomes = (approval: PayoutApproval): Pick<PayoutOutcomes, 'order_delivery' | 'order_refund'> => ({
  order_delivery: {
    approved: payoutApproved,
    async completed(tx, payout) {
      const now = new Date();
      const done = await ordersRepository.updateIfProcessing(tx, payout.orderId!, { status: 'completed_success', payoutTxid: payout.txid, completedAt: now, updatedAt: now });
      if (done) await notifyCompleted(tx, done);
    },
    async failed(tx, payout) {
      // The payout gave the converted amount back to the exchange; the fee goes back too, and
      // the customer gets back what they paid.
      const order = await ordersRepository.lockById(tx, payout.orderId!);
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
      await fail(tx, order, 'payout_failed', { policy: approval, triggeredBy: payout.rejectedBy });
    },
  },
  // A refund that could not be paid (or was rejected) stays with the exchange, listed as a failed
  // payout for the operator; the order already told the customer it was refunded.
  order_refund: {
    approved: payoutApproved,
    completed: async () => undefined,
    async failed(tx, payout) {
      await ordersRepository.update(tx, payout.orderId!, { payoutAwaitingApproval: false, updatedAt: new Date() });
    },
  },
});

/**
 * The whole amount received goes back where it came from: the wallet at once, a bank or an
 * address by payout (which may wait for approval).
 */
async function refundOrder(tx: Db, order: OrderRow, approval: RefundApproval): Promise<{ refund: Refund; awaitingApproval: boolean }> {
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
      // What the wallet paid comes back whole, at the value it left with.
      metadata: { ...meta, eurValue: eur(order.amountEur) },
    });
    return { refund: 'wallet', awaitingApproval: false };
  }
  const bank = from === 'EUR';
  const payout = await requestPayout(tx, {
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
    approval: { policy: approval.policy, accountId: order.accountId, triggeredBy: approval.triggeredBy },
  });
  return { refund: bank ? 'bank' : 'sender', awaitingApproval: payout.status === 'awaiting_approval' };
}

async function notifyCompleted(tx: Db, order: OrderRow): Promise<void> {
  if (!order.email) return;
  const language = isLanguage(order.language) ? order.language : 'en';
  const success = order.status === 'completed_success';
  const money = orderMoney(order);
  const text = emailText(language, success ? 'orderCompleted' : 'orderFailed', {
    reference: order.reference,
    amount: money.actualAmountConverted === null ? '' : formatMoney(language, money.actualAmountConverted, order.currencyTo),
    received: money.amountReceived === null ? '' : formatMoney(language, money.amountReceived, order.currencyFrom),
    reason: order.failureReason ? phrase(language, 'failureReasons', order.failureReason) : '',
    refund: order.refund ? phrase(language, 'refunds', order.refund) : '',
  });
  await send(tx, { channel: 'email', recipient: order.email, ...text, accountId: order.accountId ?? undefined });
}
