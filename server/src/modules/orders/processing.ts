import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, ledgerTransfers, orders } from '../../db/schema';
import { ApiError } from '../../errors';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import type { RatesAdapter } from '../rates/service';
import type { ChainAdapter } from '../chain/adapter';
import { send, messageText, phrase } from '../notify/service';
import { newReference, type OrderRow } from './service';
import { currencyByCode } from '../../../../domain/currencies';
import { decimalToMinor, eur, minorToDecimal } from '../../../../domain/money';
import { parseDepositReference } from '../../../../domain/references';
import { quote, type Quote } from '../../../../domain/quotes';
import { ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import type { Refund } from '../../../../domain/orders';
import { isLanguage } from '../../../../src/i18n/languages';

/**
 * Order processing: money arrives (a bank payment, crypto at the order's receiving address, or
 * the customer's own Muntly wallet at ordering), then a worker converts it at the rate of that
 * moment and delivers it, or refunds it. Every movement is a ledger transfer whose id is derived
 * from the order, so a retry never moves money twice. States: new (waiting for the money) →
 * processing (money here, waiting for the worker) → completed_success | completed_failure.
 *
 * The worker is safe with several API replicas on one PostgreSQL: each takes an order with
 * FOR UPDATE SKIP LOCKED and settles it in the same transaction, so no order is settled twice.
 */
export type FailureReason = 'amount_mismatch' | 'order_limit' | 'network_fee_exceeds_amount' | 'invalid_amount' | 'deposit_limit' | 'payout_failed';

const decimalsOf = (code: string) => (code === 'EUR' ? 2 : currencyByCode(code)!.decimals);
const toMinor = (value: string, code: string) => decimalToMinor(value, decimalsOf(code)) ?? 0n;

/** The bank's payment reason for an order: its shortReference, in any case, spaces or dashes optional. */
export function parseShortReference(reason: string): string | null {
  const letters = reason.toUpperCase().replace(/[\s-]+/g, '');
  return /^[A-Z]{8}$/.test(letters) ? `${letters.slice(0, 4)}-${letters.slice(4)}` : null;
}

type BankPayment = { reason: string; amount: string; txid?: string };

/**
 * A SEPA payment arrived on the house account (the bank adapter calls this; locally
 * `npm run ops -- payment-received <reason> <amountEUR>`). Its reason names either a buy order
 * (shortReference) or a wallet deposit (DEPOSIT + accountKey + optional currency). The bank's
 * transaction id makes a reported payment count once.
 */
export async function bankPaymentReceived(db: Db, rates: RatesAdapter, payment: BankPayment): Promise<{ order: OrderRow; created: boolean }> {
  const amount = decimalToMinor(payment.amount.trim(), 2);
  if (amount === null || amount <= 0n) throw new ApiError(400, 'invalid_amount', 'amount');
  const txid = payment.txid ?? randomBytes(16).toString('hex');
  const transferId = `bank-payment:${txid}`;

  return db.transaction(async (tx) => {
    const [booked] = await tx.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, transferId));
    if (booked) {
      const [order] = await tx.select().from(orders).where(eq(orders.id, String((booked.metadata as { orderId?: string } | null)?.orderId ?? '')));
      if (order) return { order, created: false };
      throw new ApiError(409, 'idempotency_conflict');
    }
    const deposit = parseDepositReference(payment.reason);
    const order = deposit ? await openDepositOrder(tx as Db, rates, deposit, eur(amount), transferId) : await lockBuyOrder(tx as Db, payment.reason);
    await transfer(tx as Db, {
      id: transferId,
      currency: 'EUR',
      debitAccountId: (await systemAccount(tx as Db, 'bank', 'EUR')).id,
      creditAccountId: (await systemAccount(tx as Db, 'exchange', 'EUR')).id,
      amount,
      code: 'order_payment',
      metadata: { orderId: order.id, reference: order.reference, reason: payment.reason },
    });
    const [funded] = await tx
      .update(orders)
      .set({ status: 'processing', amountReceived: eur(amount), fundedAt: new Date(), updatedAt: new Date() })
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
        .where(and(eq(orders.shortReference, shortReference), eq(orders.type, 'buy'), eq(orders.status, 'new'), eq(orders.useMyWallet, false)))
        .orderBy(desc(orders.createdAt))
        .limit(1)
        .for('update')
    : [];
  // In production an unmatched payment goes to manual review (and back to the sender).
  if (!order) throw new ApiError(404, 'not_found', 'reason', 'No open order or account matches this payment reason.');
  return order;
}

/** A deposit appears as an order of type deposit: EUR into the wallet, or converted to the named currency. */
async function openDepositOrder(tx: Db, rates: RatesAdapter, deposit: { accountKey: string; currency?: string }, amount: string, idempotencyKey: string): Promise<OrderRow> {
  const [account] = await tx.select().from(accounts).where(eq(accounts.accountKey, deposit.accountKey));
  if (!account) throw new ApiError(404, 'not_found', 'reason', 'No open order or account matches this payment reason.');
  // An unknown currency code in the reason: credit the euros as they are rather than refuse them.
  const target = deposit.currency && currencyByCode(deposit.currency) ? deposit.currency : 'EUR';
  const estimate = target === 'EUR' ? null : quote({ type: 'buy', currencyFrom: 'EUR', currencyTo: target, amount, rates: (await rates.current()).rates, toMuntlyWallet: true });
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
      estimatedAmountConverted: known?.amountConverted ?? (target === 'EUR' ? amount : '0'),
      fee: known?.fee ?? '0.00',
      estimatedNetworkFee: known?.networkFee ?? '0',
      idempotencyKey,
    })
    .returning();
  return order!;
}

type ChainPayment = { currency: string; address: string; amount: bigint; txid: string; sender?: string };

/**
 * Crypto arrived at an order's receiving address (a sell or swap). Called by the chain deposit
 * service when the address is not a wallet's. Returns null when no order has this address.
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
    if (order.status !== 'new') throw new ApiError(409, 'order_not_open', 'address', 'This order has already received its payment.');
    await transfer(tx as Db, {
      id: transferId,
      currency: payment.currency,
      debitAccountId: (await systemAccount(tx as Db, 'chain', payment.currency)).id,
      creditAccountId: (await systemAccount(tx as Db, 'exchange', payment.currency)).id,
      amount: payment.amount,
      code: 'order_payment',
      metadata: { orderId: order.id, reference: order.reference, txid: payment.txid },
    });
    const [funded] = await tx
      .update(orders)
      .set({
        status: 'processing',
        amountReceived: minorToDecimal(payment.amount, decimalsOf(payment.currency)),
        senderAddress: payment.sender ?? null,
        fundedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(orders.id, order.id))
      .returning();
    return { order: funded!, created: true };
  });
}

/** Settles funded orders until none is waiting (or `limit` were settled). Returns how many. */
export async function processOrders(db: Db, deps: { rates: RatesAdapter; chain: ChainAdapter }, limit = 100): Promise<number> {
  let settled = 0;
  while (settled < limit) {
    const done = await db.transaction(async (tx) => {
      const claimed = (await tx.execute(sql`
        select id from orders where status = 'processing'
        order by funded_at limit 1 for update skip locked`)) as unknown as { rows: { id: string }[] };
      const id = claimed.rows[0]?.id;
      if (!id) return false;
      const [order] = await tx.select().from(orders).where(eq(orders.id, id));
      await settle(tx as Db, deps, order!);
      return true;
    });
    if (!done) break;
    settled++;
  }
  return settled;
}

type Outcome = { ok: true; quote: Quote } | { ok: false; reason: FailureReason };

async function evaluate(tx: Db, rates: RatesAdapter, order: OrderRow): Promise<Outcome> {
  const received = order.amountReceived!;
  const current = (await rates.current()).rates;
  if (order.type === 'deposit') {
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, order.accountId!));
    if (toMinor(received, 'EUR') > account!.depositLimitEurMinor) return { ok: false, reason: 'deposit_limit' };
    if (order.currencyTo === 'EUR') {
      return { ok: true, quote: { rate: '1', fee: '0.00', feeCurrency: 'EUR', networkFee: '0.00', networkFeeCurrency: 'EUR', amountConverted: received, amountEur: received } };
    }
  } else if (!new Big(received).eq(order.amount)) {
    // A floating order converts what was ordered; a different amount goes back, whole.
    return { ok: false, reason: 'amount_mismatch' };
  }
  const estimate = quote({
    type: order.type === 'deposit' ? 'buy' : (order.type as 'buy' | 'sell' | 'swap'),
    currencyFrom: order.currencyFrom,
    currencyTo: order.currencyTo,
    amount: received,
    rates: current,
    toMuntlyWallet: order.sendToMyWallet || order.type === 'deposit',
  });
  // No rate now: leave the order waiting; the next run tries again.
  if (estimate === 'rate_unavailable') throw new ApiError(503, 'try_again_soon');
  if (estimate === 'invalid_pair' || estimate === 'invalid_amount') return { ok: false, reason: 'invalid_amount' };
  if (estimate === 'network_fee_exceeds_amount') return { ok: false, reason: estimate };
  if (toMinor(estimate.amountEur, 'EUR') > ORDER_LIMIT_EUR_MINOR) return { ok: false, reason: 'order_limit' };
  return { ok: true, quote: estimate };
}

async function settle(tx: Db, deps: { rates: RatesAdapter; chain: ChainAdapter }, order: OrderRow): Promise<void> {
  const outcome = await evaluate(tx, deps.rates, order);
  const exchange = (code: string) => systemAccount(tx, 'exchange', code);
  const meta = { orderId: order.id, reference: order.reference };
  const now = new Date();
  if (outcome.ok) {
    const { quote: q } = outcome;
    const to = order.currencyTo;
    const fee = toMinor(q.fee, 'EUR');
    if (fee > 0n) {
      await transfer(tx, { id: `order-fee:${order.id}`, currency: 'EUR', debitAccountId: (await exchange('EUR')).id, creditAccountId: (await systemAccount(tx, 'fees', 'EUR')).id, amount: fee, code: 'fee', metadata: meta });
    }
    const converted = toMinor(q.amountConverted, to);
    let payoutTxid: string | null = null;
    let payoutFailed = false;
    if (order.sendToMyWallet || order.type === 'deposit') {
      await transfer(tx, { id: `order-delivery:${order.id}`, currency: to, debitAccountId: (await exchange(to)).id, creditAccountId: (await userAccount(tx, order.accountId!, to)).id, amount: converted, code: 'order', metadata: { ...meta, label: order.type } });
    } else if (to === 'EUR') {
      await transfer(tx, { id: `order-delivery:${order.id}`, currency: 'EUR', debitAccountId: (await exchange('EUR')).id, creditAccountId: (await systemAccount(tx, 'bank', 'EUR')).id, amount: converted, code: 'payout', metadata: { ...meta, iban: order.address } });
      await send(tx, { channel: 'bank', recipient: order.address!, subject: `SEPA transfer EUR ${q.amountConverted}`, body: `Payment reason: ${order.shortReference}` });
    } else {
      try {
        payoutTxid = (await deps.chain.payout({ currency: to, address: order.address!, amount: q.amountConverted, idempotencyKey: `order:${order.id}` })).txid;
      } catch {
        payoutFailed = true;
      }
      if (!payoutFailed) {
        const chain = (await systemAccount(tx, 'chain', to)).id;
        await transfer(tx, { id: `order-delivery:${order.id}`, currency: to, debitAccountId: (await exchange(to)).id, creditAccountId: chain, amount: converted, code: 'payout', metadata: { ...meta, txid: payoutTxid } });
        const networkFee = toMinor(q.networkFee, to);
        if (networkFee > 0n) {
          await transfer(tx, { id: `order-network-fee:${order.id}`, currency: to, debitAccountId: (await exchange(to)).id, creditAccountId: chain, amount: networkFee, code: 'network_fee', metadata: { ...meta, txid: payoutTxid } });
        }
      }
    }
    if (!payoutFailed) {
      const [done] = await tx
        .update(orders)
        .set({ status: 'completed_success', actualRate: q.rate, actualAmountConverted: q.amountConverted, actualNetworkFee: q.networkFee, actualFee: q.fee, payoutTxid, completedAt: now, updatedAt: now })
        .where(eq(orders.id, order.id))
        .returning();
      await notifyCompleted(tx, done!);
      return;
    }
    // The fee booked above stays only with a delivered order: undo it with a counter-transfer.
    if (fee > 0n) {
      await transfer(tx, { id: `order-fee-return:${order.id}`, currency: 'EUR', debitAccountId: (await systemAccount(tx, 'fees', 'EUR')).id, creditAccountId: (await exchange('EUR')).id, amount: fee, code: 'fee', metadata: meta });
    }
  }
  const reason: FailureReason = outcome.ok ? 'payout_failed' : outcome.reason;
  const refund = await refundOrder(tx, order);
  const [failed] = await tx
    .update(orders)
    .set({ status: 'completed_failure', failureReason: reason, refund, completedAt: now, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  await notifyCompleted(tx, failed!);
}

/** The whole amount received goes back where it came from. */
async function refundOrder(tx: Db, order: OrderRow): Promise<Refund> {
  const from = order.currencyFrom;
  const amount = toMinor(order.amountReceived!, from);
  const exchange = (await systemAccount(tx, 'exchange', from)).id;
  const meta = { orderId: order.id, reference: order.reference, label: 'refund' };
  if (order.useMyWallet) {
    await transfer(tx, { id: `order-refund:${order.id}`, currency: from, debitAccountId: exchange, creditAccountId: (await userAccount(tx, order.accountId!, from)).id, amount, code: 'order', metadata: meta });
    return 'wallet';
  }
  if (from === 'EUR') {
    await transfer(tx, { id: `order-refund:${order.id}`, currency: 'EUR', debitAccountId: exchange, creditAccountId: (await systemAccount(tx, 'bank', 'EUR')).id, amount, code: 'refund', metadata: meta });
    return 'bank';
  }
  await transfer(tx, { id: `order-refund:${order.id}`, currency: from, debitAccountId: exchange, creditAccountId: (await systemAccount(tx, 'chain', from)).id, amount, code: 'refund', metadata: { ...meta, address: order.senderAddress } });
  return 'sender';
}

async function notifyCompleted(tx: Db, order: OrderRow): Promise<void> {
  if (!order.email) return;
  const language = isLanguage(order.language) ? order.language : 'en';
  const success = order.status === 'completed_success';
  const text = messageText(language, success ? 'orderCompleted' : 'orderFailed', {
    reference: order.reference,
    amount: order.actualAmountConverted ?? '',
    currency: order.currencyTo,
    received: order.amountReceived ?? '',
    currencyFrom: order.currencyFrom,
    reason: order.failureReason ? phrase(language, 'failureReasons', order.failureReason) : '',
    refund: order.refund ? phrase(language, 'refunds', order.refund) : '',
  });
  await send(tx, { channel: 'email', recipient: order.email, ...text, accountId: order.accountId ?? undefined });
}
