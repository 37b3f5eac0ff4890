import { randomBytes } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import Big from 'big.js';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';
import { ApiError } from '../../errors';
import type { AccountRow } from '../accounts/repository';
import { requireVerifications } from '../identity/service';
import type { RatesAdapter } from '../rates/service';
import { currencyByCode, isOwnWalletOnly } from '../../../../domain/currencies';
import { normalizeAddress } from '../../../../domain/addresses';
import { codeFromBytes, normalizeCode } from '../../../../domain/codes';
import { quote } from '../../../../domain/quotes';
import { epcPayload } from '../../../../domain/epc';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import { decimalToMinor, eur } from '../../../../domain/money';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { nextHouseAddress } from '../wallet/addresses';
import type { DERIVED_CURRENCIES, Xpubs } from '../chain/derive';
import { send, messageText } from '../notify/service';
import type { Language } from '../../../../src/i18n/languages';

/**
 * Placing exchange orders (spec section 5, every rule with its code). Invariants: a reference is
 * unique; the same Idempotency-Key places one order; the first order of a customer (by email, and
 * by account when logged in) is at most 100 EUR, any order at most 30,000 EUR.
 */
export type OrderRow = typeof orders.$inferSelect;
export type OrderInput = {
  type: 'buy' | 'sell' | 'swap';
  currencyFrom: string;
  currencyTo: string;
  amount: string;
  email: string;
  address?: string;
  paymentMethod?: 'sepa' | 'sepa_instant';
  sendToMyWallet?: boolean;
  useMyWallet?: boolean;
};
export type BankDetails = { iban: string; bic: string; beneficiary: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function newReference(): string {
  for (;;) {
    const code = codeFromBytes(randomBytes(32));
    if (code) return code;
  }
}

/** Where the customer sends the crypto of a sell or swap (XRP: the house address and the tag apart). */
function receivingOf(row: OrderRow) {
  if (!row.receivingAddress) return null;
  const [address, tag] = row.currencyFrom === 'XRP' ? row.receivingAddress.split(':') : [row.receivingAddress];
  return { currency: row.currencyFrom, address: address!, tag: tag ?? null, amount: row.amount };
}

export type OrderStatus = 'new' | 'processing' | 'completed_success' | 'completed_failure';

export function orderView(row: OrderRow, bank: BankDetails) {
  const paymentDetails =
    row.type === 'buy' && !row.useMyWallet
      ? {
          iban: bank.iban,
          bic: bank.bic,
          beneficiary: bank.beneficiary,
          amount: row.amount,
          reason: row.shortReference,
          methods: ['sepa', 'sepa_instant'],
          epcPayload: epcPayload({ bic: bank.bic, beneficiary: bank.beneficiary, iban: bank.iban, amountEur: row.amount, reason: row.shortReference }),
        }
      : null;
  return {
    reference: row.reference,
    shortReference: row.shortReference,
    type: row.type as OrderInput['type'] | 'deposit',
    currencyFrom: row.currencyFrom,
    currencyTo: row.currencyTo,
    amount: row.amount,
    amountEur: row.amountEur,
    address: row.address,
    rateType: 'floating' as const,
    paymentMethod: row.paymentMethod,
    estimatedRate: row.estimatedRate,
    estimatedAmountConverted: row.estimatedAmountConverted,
    estimatedNetworkFee: row.estimatedNetworkFee,
    fee: row.fee,
    status: row.status as OrderStatus,
    date: row.createdAt.toISOString(),
    sendToMyWallet: row.sendToMyWallet,
    useMyWallet: row.useMyWallet,
    paymentDetails,
    receiving: receivingOf(row),
    amountReceived: row.amountReceived,
    actualRate: row.actualRate,
    actualAmountConverted: row.actualAmountConverted,
    actualNetworkFee: row.actualNetworkFee,
    actualFee: row.actualFee,
    payoutTxid: row.payoutTxid,
    failure: row.failureReason ? { reason: row.failureReason, refund: (row.refund ?? 'bank') as 'bank' | 'wallet' | 'sender' } : null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export async function placeOrder(
  db: Db,
  rates: RatesAdapter,
  options: { buySellEnabled: boolean; xpubs: Xpubs; language: Language; account?: AccountRow; idempotencyKey?: string },
  input: OrderInput,
): Promise<{ order: OrderRow; created: boolean }> {
  if (options.idempotencyKey) {
    const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKey, options.idempotencyKey));
    if (existing) return { order: existing, created: false };
  }
  const from = input.currencyFrom.toUpperCase();
  const to = input.currencyTo.toUpperCase();
  if ((input.type === 'buy' || input.type === 'sell') && !options.buySellEnabled) throw new ApiError(403, 'buy_sell_disabled');
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw new ApiError(400, 'invalid_email', 'email');
  const fromCurrency = from === 'EUR' ? null : currencyByCode(from);
  const toCurrency = to === 'EUR' ? null : currencyByCode(to);
  if (fromCurrency === undefined) throw new ApiError(400, 'validation_failed', 'currencyFrom', 'Unknown currency.');
  if (toCurrency === undefined) throw new ApiError(400, 'validation_failed', 'currencyTo', 'Unknown currency.');

  const ownWallet = Boolean(input.sendToMyWallet || input.useMyWallet);
  // A partially supported currency cannot arrive from or leave for an outside wallet.
  if (toCurrency && isOwnWalletOnly(toCurrency) && !input.sendToMyWallet) throw new ApiError(409, 'own_wallet_only', 'currencyTo');
  if (fromCurrency && isOwnWalletOnly(fromCurrency) && !input.useMyWallet) throw new ApiError(409, 'own_wallet_only', 'currencyFrom');
  if (ownWallet && !options.account) throw new ApiError(401, 'login_required');
  if (ownWallet) await requireVerifications(db, options.account!.id, { usesWallet: true });

  // The delivery address: a crypto address, or for a sell the IBAN that receives the euros.
  let address: string | null = null;
  if (toCurrency && !input.sendToMyWallet) {
    address = normalizeAddress(toCurrency.code, input.address ?? '');
    if (!address) throw new ApiError(400, 'invalid_address', 'address');
  } else if (to === 'EUR' && !input.sendToMyWallet) {
    address = electronicFormatIBAN(input.address ?? '') ?? '';
    if (!isValidIBAN(address)) throw new ApiError(400, 'invalid_iban', 'address');
  }

  const estimate = quote({ type: input.type, currencyFrom: from, currencyTo: to, amount: input.amount.trim(), rates: (await rates.current()).rates, toMuntlyWallet: input.sendToMyWallet });
  if (estimate === 'invalid_pair') throw new ApiError(400, 'validation_failed', 'currencyTo', 'This pair does not fit the order type.');
  if (estimate === 'invalid_amount') throw new ApiError(400, 'invalid_amount', 'amount');
  if (estimate === 'network_fee_exceeds_amount') throw new ApiError(409, 'network_fee_exceeds_amount', 'amount');
  if (estimate === 'rate_unavailable') throw new ApiError(503, 'try_again_soon');

  const amountEurMinor = BigInt(new Big(estimate.amountEur).times(100).toFixed(0));
  if (amountEurMinor > ORDER_LIMIT_EUR_MINOR) throw new ApiError(409, 'order_limit', 'amount');
  const previous = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(options.account ? or(eq(orders.email, email), eq(orders.accountId, options.account.id)) : eq(orders.email, email));
  if ((previous[0]?.n ?? 0) === 0 && amountEurMinor > FIRST_ORDER_LIMIT_EUR_MINOR) {
    throw new ApiError(409, 'first_order_limit', 'amount', `Order rejected. The first order of each new customer is limited to ${eur(FIRST_ORDER_LIMIT_EUR_MINOR)} EUR.`);
  }

  const reference = newReference();
  const amount = input.amount.trim();
  const created = await db.transaction(async (tx) => {
    // Sell and swap from outside: a fresh house address that only this order uses.
    const receivingAddress =
      fromCurrency && !input.useMyWallet ? (await nextHouseAddress(tx as Db, options.xpubs, fromCurrency.code as (typeof DERIVED_CURRENCIES)[number])).address : null;
    const [row] = await tx
      .insert(orders)
      .values({
        reference,
        shortReference: reference.slice(0, 9),
        type: input.type,
        currencyFrom: from,
        currencyTo: to,
        amount,
        amountEur: estimate.amountEur,
        email,
        accountId: options.account?.id ?? null,
        address,
        paymentMethod: input.type === 'buy' && !input.useMyWallet ? input.paymentMethod ?? 'sepa' : null,
        sendToMyWallet: Boolean(input.sendToMyWallet),
        useMyWallet: Boolean(input.useMyWallet),
        estimatedRate: estimate.rate,
        estimatedAmountConverted: estimate.amountConverted,
        fee: estimate.fee,
        estimatedNetworkFee: estimate.networkFee,
        idempotencyKey: options.idempotencyKey ?? null,
        language: options.language,
        receivingAddress,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    let placed = row;
    if (input.useMyWallet) {
      // Paid from the wallet at once, in this transaction: the ledger refuses an overdraft and the
      // order is not placed then.
      await transfer(tx as Db, {
        id: `order-debit:${row.id}`,
        currency: from,
        debitAccountId: (await userAccount(tx as Db, options.account!.id, from)).id,
        creditAccountId: (await systemAccount(tx as Db, 'exchange', from)).id,
        amount: decimalToMinor(amount, from === 'EUR' ? 2 : fromCurrency!.decimals)!,
        code: 'order',
        metadata: { orderId: row.id, reference, label: input.type },
      });
      const now = new Date();
      [placed] = await tx.update(orders).set({ status: 'processing', amountReceived: amount, fundedAt: now, updatedAt: now }).where(eq(orders.id, row.id)).returning();
    }
    const text = messageText(options.language, 'orderPlaced', { reference, amount, currencyFrom: from, currencyTo: to, shortReference: row.shortReference });
    await send(tx as Db, { channel: 'email', recipient: email, ...text, accountId: options.account?.id });
    return placed!;
  });
  if (created) return { order: created, created: true };
  // The same Idempotency-Key arrived twice at once: the other request placed it.
  const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKey, options.idempotencyKey ?? ''));
  if (!existing) throw new ApiError(503, 'try_again_soon');
  return { order: existing, created: false };
}

/** The logged-in user's orders (placed while logged in), newest first. */
export async function ordersOf(db: Db, accountId: string): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.accountId, accountId)).orderBy(sql`${orders.createdAt} desc`).limit(200);
}

/** Email + full reference -> the order; anything else is one uniform "not found". */
export async function lookupOrder(db: Db, email: string, reference: string): Promise<OrderRow> {
  const normalized = normalizeCode(reference);
  const [row] = normalized
    ? await db.select().from(orders).where(and(eq(orders.reference, normalized), eq(orders.email, email.trim().toLowerCase())))
    : [];
  if (!row) throw new ApiError(404, 'not_found', undefined, 'No order matches this email address and reference.');
  return row;
}
