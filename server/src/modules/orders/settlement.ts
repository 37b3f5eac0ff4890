import { knownDecimals } from '#domain/currencies';
import { DomainError, type ErrorCode } from '#domain/errors';
import { isLanguage } from '#domain/languages';
import { eur, minorToDecimal } from '#domain/money';
import { isFailureReason, type FailureReason, type Refund } from '#domain/orders';
import { quote, type Quote } from '#domain/quotes';
import { findAccountById } from '../accounts/service';
import { recordAudit } from '../audit/service';
import { exchangeGate, orderOutflowGate, type ExchangePass } from '../gates/service';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { formatMoney, send, emailText, phrase } from '../notify/service';
import { refuseOwnMoney, type Operator } from '../payouts/review';
import { requestPayout, type PayoutOutcomes } from '../payouts/service';
import { ordersRepository, type OrderRow } from './repository';
import { conversionOf } from './service';
import { orderMoney } from './views';
import type { Db, Tx } from '../../db/client';
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
export type SettlementDeps = { rates: RatesAdapter; approval: PayoutApproval; buySellEnabled: boolean };

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

type Outcome =
  | { ok: true; quote: Quote; pass: ExchangePass }
  | { ok: false; reason: FailureReason }
  | { ok: 'euros' }
  | { ok: 'keep_in_euros'; refusal: ErrorCode }
  | { ok: 'hold' };

async function evaluate(tx: Tx, deps: SettlementDeps, order: OrderRow): Promise<Outcome> {
  // Paid after it expired: nothing is converted, the payment goes back whole.
  if (order.expiredAt) return { ok: false, reason: 'expired' };
  const received = order.amountReceived!;
  const current = (await deps.rates.current()).rates;
  const deposit = order.type === 'deposit';
  const type = order.type === 'deposit' ? 'buy' : order.type;
  if (deposit) {
    const account = await findAccountById(tx, order.accountId!);
    if (received > account!.depositLimitEurMinor) return { ok: false, reason: 'deposit_limit' };
    // Kept as euros: money arriving, no exchange.
    if (order.currencyTo === 'EUR') return { ok: 'euros' };
  } else if (received !== order.amount) {
    // A floating order converts what was ordered; a different amount goes back, whole.
    return { ok: false, reason: 'amount_mismatch' };
  }
  const estimate = quote({
    type,
    currencyFrom: order.currencyFrom,
    currencyTo: order.currencyTo,
    amount: minorToDecimal(received, knownDecimals(order.currencyFrom)),
    rates: current,
    toMuntlyWallet: order.sendToMyWallet || deposit,
  });
  // No rate now: leave the order waiting; the next run tries again.
  if (estimate === 'rate_unavailable') throw new DomainError('try_again_soon');
  if (estimate === 'invalid_pair' || estimate === 'invalid_amount' || estimate === 'amount_below_minimum_fee')
    return { ok: false, reason: 'invalid_amount' };
  if (estimate === 'network_fee_exceeds_amount') return { ok: false, reason: estimate };
  // The exchange gate, again now that the money is here, with the value of this moment: every rule
  // of a buy applies to a deposit converted on arrival, and a customer still new (no exchange of
  // theirs completed since this one was placed) gets back an order above the first-order cap.
  try {
    return {
      ok: true,
      quote: estimate,
      pass: await exchangeGateFor(tx, deps, order, estimate.amountEur.minor),
    };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // A deposit that may not be converted stays in euros, in the wallet it was paid to.
    if (deposit) return { ok: 'keep_in_euros', refusal: error.code };
    // An anonymous customer whose payer is past the week's cap: an operator looks at it first.
    if (error.code === 'weekly_limit_login_required') return { ok: 'hold' };
    return { ok: false, reason: refusalReason(error.code) };
  }
}

/** The exchange gate for an order being converted, at `amountEurMinor`. */
const exchangeGateFor = (tx: Tx, deps: SettlementDeps, order: OrderRow, amountEurMinor: bigint) =>
  exchangeGate(
    tx,
    { rates: deps.rates, buySellEnabled: deps.buySellEnabled },
    { ...conversionOf(order), amountEurMinor, stage: 'conversion' },
  );

/**
 * Converts a funded order at the rate of this moment and books its delivery, in the worker's
 * transaction: into the wallet (done at once), or held for a payout to the customer's address or
 * IBAN — the order then completes when the payout does (`orderPayoutOutcomes`). An order that
 * cannot be converted is refunded whole.
 */
async function settle(tx: Tx, deps: SettlementDeps, order: OrderRow): Promise<void> {
  const outcome = await evaluate(tx, deps, order);
  const now = new Date();
  if (outcome.ok === false) {
    await fail(tx, order, outcome.reason, { policy: deps.approval });
    return;
  }
  if (outcome.ok === 'hold') {
    await ordersRepository.update(tx, order.id, { reviewHold: true, updatedAt: now });
    return;
  }
  if (outcome.ok === 'keep_in_euros') {
    await keepInEuros(tx, deps, order, outcome.refusal);
    return;
  }
  if (outcome.ok === 'euros') {
    await creditEuros(tx, order, now);
    return;
  }
  await convert(tx, deps, order, outcome);
}

/** A deposit kept as euros: into the wallet it was paid to, done at once (money arriving, no exchange). */
async function creditEuros(tx: Tx, order: OrderRow, now: Date, wanted?: string): Promise<OrderRow> {
  const received = order.amountReceived!;
  await transfer(tx, {
    id: `order-delivery:${order.id}`,
    currency: 'EUR',
    debitAccountId: (await systemAccount(tx, 'exchange', 'EUR')).id,
    creditAccountId: (await userAccount(tx, order.accountId!, 'EUR')).id,
    amount: received,
    code: 'order',
    metadata: { orderId: order.id, reference: order.reference, label: order.type, eurValue: eur(received) },
  });
  const done = await ordersRepository.update(tx, order.id, {
    actualRate: '1',
    actualAmountConverted: received,
    actualNetworkFee: 0n,
    actualFee: 0n,
    settledAt: now,
    updatedAt: now,
    status: 'completed_success',
    completedAt: now,
  });
  await notifyCompleted(tx, done, wanted);
  return done;
}

/**
 * A deposit the exchange gate would not convert (buying off, a verification missing, the week, the
 * first-order cap): kept in euros in the wallet, and the user told why in their language. Where the
 * account may not hold euros either (no verified bank account), the payment goes back whole.
 */
async function keepInEuros(tx: Tx, deps: SettlementDeps, order: OrderRow, refusal: ErrorCode): Promise<void> {
  const reason = refusalReason(refusal);
  if (refusal === 'bank_verification_required') {
    await fail(tx, order, reason, { policy: deps.approval });
    return;
  }
  const received = order.amountReceived!;
  const kept = await ordersRepository.update(tx, order.id, {
    currencyTo: 'EUR',
    conversionRefusal: reason,
    estimatedRate: '1',
    estimatedAmountConverted: received,
    estimatedNetworkFee: 0n,
    fee: 0n,
  });
  await creditEuros(tx, kept, new Date(), order.currencyTo);
}

/** The customer-facing reason of a refusal at conversion (domain/orders.ts FAILURE_REASONS). */
const refusalReason = (code: ErrorCode): FailureReason => (isFailureReason(code) ? code : 'invalid_amount');

/**
 * The conversion itself, admitted by the exchange gate's pass: the fee, then the delivery into the
 * wallet (done at once) or held for a payout to the customer's address or IBAN.
 */
async function convert(
  tx: Tx,
  deps: SettlementDeps,
  order: OrderRow,
  outcome: { quote: Quote; pass: ExchangePass },
): Promise<void> {
  const exchange = (code: string) => systemAccount(tx, 'exchange', code);
  const meta = { orderId: order.id, reference: order.reference };
  const now = new Date();
  const { quote: q } = outcome;
  const to = order.currencyTo;
  const fee = q.fee.minor;
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
  const converted = q.amountConverted.minor;
  const actual = {
    actualRate: q.rate,
    actualAmountConverted: converted,
    actualNetworkFee: q.networkFee.minor,
    actualFee: fee,
    settledAt: now,
    updatedAt: now,
  };
  if (order.sendToMyWallet || order.type === 'deposit') {
    await transfer(tx, {
      id: `order-delivery:${order.id}`,
      currency: to,
      debitAccountId: (await exchange(to)).id,
      creditAccountId: (await userAccount(tx, order.accountId!, to)).id,
      amount: converted,
      code: 'order',
      // Worth what was paid less the fee, at the rate applied: the row's own EUR value.
      metadata: { ...meta, label: order.type, eurValue: eur(q.amountEur.minor - fee) },
    });
    await notifyCompleted(
      tx,
      await ordersRepository.update(tx, order.id, { ...actual, status: 'completed_success', completedAt: now }),
    );
    return;
  }
  const networkFee = to === 'EUR' ? 0n : actual.actualNetworkFee;
  const payout = await requestPayout(tx, {
    // The order's own money; paid from the wallet, the outflow gate judged it when its code was accepted.
    pass: orderOutflowGate('order_delivery'),
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
      {
        id: `order-delivery:${order.id}`,
        amount: converted,
        code: 'payout',
        metadata: { ...meta, destination: order.address },
      },
      { id: `order-network-fee:${order.id}`, amount: networkFee, code: 'network_fee', metadata: meta },
    ],
    approval: { policy: deps.approval, accountId: order.accountId },
  });
  await ordersRepository.update(tx, order.id, {
    ...actual,
    payoutAwaitingApproval: payout.status === 'awaiting_approval',
  });
}

/**
 * An operator decides on an anonymous order held because its payer's week passed the cap for
 * customers without an account: `convert` releases it (the worker converts it next, past that cap
 * only; every other rule still applies), `refund` sends the money back to the payer, who is told
 * why. Not the operator's own order (their account or email), and audited as order.review.
 */
export async function reviewHeldOrder(
  db: Db,
  deps: SettlementDeps,
  input: { reference: string; decision: 'convert' | 'refund'; operator: Operator },
): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const order = await ordersRepository.lockByReference(tx, input.reference);
    if (!order) throw new DomainError('not_found', 'reference');
    if (!order.reviewHold || order.status !== 'processing') throw new DomainError('order_not_held', 'reference');
    const { operator } = input;
    refuseOwnMoney(operator, { accountId: order.accountId, emailKeys: [order.emailKey] });
    const state = (o: OrderRow) => ({
      status: o.status,
      reviewHold: o.reviewHold,
      reviewReleasedBy: o.reviewReleasedBy,
      failureReason: o.failureReason,
    });
    const now = new Date();
    let after: OrderRow;
    if (input.decision === 'convert') {
      after = await ordersRepository.update(tx, order.id, {
        reviewHold: false,
        reviewReleasedBy: operator.actor,
        updatedAt: now,
      });
    } else {
      await ordersRepository.update(tx, order.id, { reviewHold: false, updatedAt: now });
      await fail(tx, order, 'weekly_limit_login_required', { policy: deps.approval, triggeredBy: operator.actor });
      after = (await ordersRepository.findById(tx, order.id))!;
    }
    await recordAudit(tx, {
      actor: operator.actor,
      action: 'order.review',
      target: order.reference,
      before: state(order),
      after: { ...state(after), decision: input.decision },
    });
    return after;
  });
}

/** How a refund payout is judged for approval: by the policy, and by who caused it (an operator rejecting the delivery). */
type RefundApproval = { policy: PayoutApproval; triggeredBy?: string | null };

/** The order cannot be delivered: the whole amount received goes back, and the customer is told why. */
async function fail(tx: Tx, order: OrderRow, reason: FailureReason, approval: RefundApproval): Promise<void> {
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
async function payoutApproved(tx: Tx, payout: { orderId: string | null }): Promise<void> {
  await ordersRepository.update(tx, payout.orderId!, { payoutAwaitingApproval: false, updatedAt: new Date() });
}

/**
 * What an order's payouts mean for it (the payout worker books them). A delivery that fails
 * (refused, or rejected by an operator) is refunded by a new payout, judged by `approval` like any
 * other; one an operator rejected counts as triggered by that operator.
 */
export const orderPayoutOutcomes = (
  approval: PayoutApproval,
): Pick<PayoutOutcomes, 'order_delivery' | 'order_refund'> => ({
  order_delivery: {
    approved: payoutApproved,
    async completed(tx, payout) {
      const now = new Date();
      const done = await ordersRepository.updateIfProcessing(tx, payout.orderId!, {
        status: 'completed_success',
        payoutTxid: payout.txid,
        completedAt: now,
        updatedAt: now,
      });
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
async function refundOrder(
  tx: Tx,
  order: OrderRow,
  approval: RefundApproval,
): Promise<{ refund: Refund; awaitingApproval: boolean }> {
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
    pass: orderOutflowGate('order_refund'),
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
    holds: [
      { id: `order-refund:${order.id}`, amount, code: 'refund', metadata: { ...meta, address: order.senderAddress } },
    ],
    approval: { policy: approval.policy, accountId: order.accountId, triggeredBy: approval.triggeredBy },
  });
  return { refund: bank ? 'bank' : 'sender', awaitingApproval: payout.status === 'awaiting_approval' };
}

async function notifyCompleted(tx: Tx, order: OrderRow, wanted?: string): Promise<void> {
  if (!order.email) return;
  const language = isLanguage(order.language) ? order.language : 'en';
  if (order.conversionRefusal && wanted) {
    const text = emailText(language, 'depositKeptInEuros', {
      reference: order.reference,
      amount: formatMoney(language, eur(order.amountReceived!), 'EUR'),
      currency: wanted,
      reason: phrase(language, 'failureReasons', order.conversionRefusal),
    });
    await send(tx, { channel: 'email', recipient: order.email, ...text, accountId: order.accountId ?? undefined });
    return;
  }
  const success = order.status === 'completed_success';
  const money = orderMoney(order);
  const text = emailText(language, success ? 'orderCompleted' : 'orderFailed', {
    reference: order.reference,
    amount:
      money.actualAmountConverted === null ? '' : formatMoney(language, money.actualAmountConverted, order.currencyTo),
    received: money.amountReceived === null ? '' : formatMoney(language, money.amountReceived, order.currencyFrom),
    reason: order.failureReason ? phrase(language, 'failureReasons', order.failureReason) : '',
    refund: order.refund ? phrase(language, 'refunds', order.refund) : '',
  });
  await send(tx, { channel: 'email', recipient: order.email, ...text, accountId: order.accountId ?? undefined });
}
