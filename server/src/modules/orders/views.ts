import { knownDecimals } from '#domain/currencies';
import { epcPayload } from '#domain/epc';
import { EUR_DECIMALS, eur, minorToDecimal } from '#domain/money';
import { incomingAt } from '../chain/service';
import type { OpsOrderSummary } from '#domain/contracts/console';
import type { BankAccount, Order, PaymentMethod } from '#domain/contracts/orders';
import type { Db } from '../../db/client';
import type { OrderRow } from './repository';

/** The account buyers and depositors pay to (GET /api/exchange/config). */
export type BankDetails = BankAccount;

/**
 * An order's money as the API shows it: the stored minor units as decimal strings with all the
 * decimals of their currency (amount and amountReceived in currencyFrom, converted amounts and
 * network fees in currencyTo, amountEur and fees in EUR); rates as stored.
 */
export function orderMoney(row: OrderRow) {
  const from = knownDecimals(row.currencyFrom);
  const to = knownDecimals(row.currencyTo);
  const money = (minor: bigint | null, decimals: number) => (minor === null ? null : minorToDecimal(minor, decimals));
  return {
    amount: minorToDecimal(row.amount, from),
    amountEur: eur(row.amountEur),
    estimatedRate: row.estimatedRate,
    estimatedAmountConverted: minorToDecimal(row.estimatedAmountConverted, to),
    estimatedNetworkFee: minorToDecimal(row.estimatedNetworkFee, to),
    fee: eur(row.fee),
    amountReceived: money(row.amountReceived, from),
    actualRate: row.actualRate,
    actualAmountConverted: money(row.actualAmountConverted, to),
    actualNetworkFee: money(row.actualNetworkFee, to),
    actualFee: money(row.actualFee, EUR_DECIMALS),
  };
}

/** Where the customer sends the crypto of a sell or swap (XRP: the house address and the tag apart). */
function receivingOf(row: OrderRow, amount: string) {
  if (!row.receivingAddress) return null;
  const [address, tag] = row.currencyFrom === 'XRP' ? row.receivingAddress.split(':') : [row.receivingAddress];
  return { currency: row.currencyFrom, address: address!, tag: tag ?? null, amount };
}

/**
 * An order as the API shows it (domain/contracts/orders.ts). `expiryDays` (ORDER_EXPIRY_DAYS):
 * an order that waits for a payment from outside says by when it must arrive.
 */
export function orderView(row: OrderRow, bank: BankDetails, expiryDays?: number): Order {
  const money = orderMoney(row);
  const paymentDetails =
    row.type === 'buy' && !row.useMyWallet
      ? {
          iban: bank.iban,
          bic: bank.bic,
          beneficiary: bank.beneficiary,
          amount: money.amount,
          reason: row.shortReference,
          methods: ['sepa', 'sepa_instant'],
          epcPayload: epcPayload({
            bic: bank.bic,
            beneficiary: bank.beneficiary,
            iban: bank.iban,
            amountEur: money.amount,
            reason: row.shortReference,
          }),
          ...(bank.sample ? { sample: true } : {}),
        }
      : null;
  return {
    reference: row.reference,
    shortReference: row.shortReference,
    type: row.type,
    currencyFrom: row.currencyFrom,
    currencyTo: row.currencyTo,
    amount: money.amount,
    amountEur: money.amountEur,
    address: row.address,
    beneficiary: row.beneficiary,
    rateType: 'floating',
    paymentMethod: row.paymentMethod as PaymentMethod | null,
    estimatedRate: money.estimatedRate,
    estimatedAmountConverted: money.estimatedAmountConverted,
    estimatedNetworkFee: money.estimatedNetworkFee,
    fee: money.fee,
    status: row.status,
    date: row.createdAt.toISOString(),
    sendToMyWallet: row.sendToMyWallet,
    useMyWallet: row.useMyWallet,
    paymentDetails,
    receiving: receivingOf(row, money.amount),
    amountReceived: money.amountReceived,
    actualRate: money.actualRate,
    actualAmountConverted: money.actualAmountConverted,
    actualNetworkFee: money.actualNetworkFee,
    actualFee: money.actualFee,
    payoutTxid: row.payoutTxid,
    failure: row.failureReason
      ? { reason: row.failureReason, refund: row.amountReceived === null ? null : (row.refund ?? 'bank') }
      : null,
    completedAt: row.completedAt?.toISOString() ?? null,
    businessHold: row.businessHold,
    payoutAwaitingApproval: row.payoutAwaitingApproval,
    awaitingCode: row.status === 'new' && row.codeHash !== null,
    reviewHold: row.reviewHold,
    keptInEuros: row.conversionRefusal,
    payBy:
      row.status === 'new' && !row.useMyWallet && expiryDays
        ? new Date(row.createdAt.getTime() + expiryDays * 86_400_000).toISOString()
        : null,
  };
}

/** An order as operators list it (domain/contracts/console.ts): what, how much, whose, how it stands. */
export function opsOrderSummaryOf(row: OrderRow, accountKey: string | null): OpsOrderSummary {
  const money = orderMoney(row);
  return {
    reference: row.reference,
    shortReference: row.shortReference,
    type: row.type,
    status: row.status,
    currencyFrom: row.currencyFrom,
    currencyTo: row.currencyTo,
    amount: money.amount,
    amountEur: money.amountEur,
    email: row.email,
    accountKey,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    failureReason: row.failureReason ?? null,
  };
}

/**
 * A sell or swap still waiting for its coins, on a currency with a real node: the coins the
 * watcher has seen at its receiving address, with their confirmations of the required number.
 */
export async function withIncoming(
  db: Db,
  view: Order,
  row: OrderRow,
  confirmations: (currency: string) => number | null,
): Promise<Order> {
  if (!view.receiving || !row.receivingAddress || row.status !== 'new') return view;
  const required = confirmations(row.currencyFrom);
  if (required === null) return view;
  const incoming =
    (await incomingAt(db, row.currencyFrom, [row.receivingAddress], required)).get(row.receivingAddress) ?? [];
  return { ...view, receiving: { ...view.receiving, incoming } };
}
