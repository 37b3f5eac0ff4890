import { randomBytes } from 'node:crypto';
import { normalizeAddress, xrpAccountOf } from '../../../../domain/addresses';
import { codeFromBytes, normalizeCode } from '../../../../domain/codes';
import { currencyByCode, decimalsOf, isOwnWalletOnly } from '../../../../domain/currencies';
import { emailKey, normalizeEmail } from '../../../../domain/email';
import { DomainError, unknownCurrency } from '../../../../domain/errors';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import { EUR_DECIMALS, exactMinor, minorToDecimal } from '../../../../domain/money';
import { quote } from '../../../../domain/quotes';
import { sepaIban } from '../../../../domain/sepa';
import { nextHouseAddress, type DERIVED_CURRENCIES, type Xpubs } from '../chain/service';
import { requireVerifications } from '../identity/service';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { quoteRefusal, type RatesAdapter } from '../rates/service';
import { anonymousWeeklyCap, lockWeeklyVolume, requireWithinWeeklyVolume } from '../volume/service';
import { orderPlacedMail } from './mail';
import { ordersRepository, type OrderRow } from './repository';
import type { PlaceOrderBody } from '../../../../domain/contracts/orders';
import type { Language } from '../../../../domain/languages';
import type { Db } from '../../db/client';
import type { AccountRow } from '../accounts/service';
import type { BankDetails } from './views';

/**
 * Placing exchange orders (spec section 5, every rule with its code). Invariants: a reference is
 * unique; the same Idempotency-Key places one order; the first order of a customer (by email, and
 * by account when logged in) is at most 100 EUR, any order at most 30,000 EUR.
 */
export type { OrderRow };

/** How many of their orders a logged-in user sees. */
const MY_ORDERS_SHOWN = 200;

export function newReference(): string {
  for (;;) {
    const code = codeFromBytes(randomBytes(32));
    if (code) return code;
  }
}

export async function placeOrder(
  db: Db,
  rates: RatesAdapter,
  options: { buySellEnabled: boolean; xpubs: Xpubs; bank: BankDetails; language: Language; account?: AccountRow; idempotencyKey?: string },
  input: PlaceOrderBody,
): Promise<{ order: OrderRow; created: boolean }> {
  const email = normalizeEmail(input.email) ?? '';
  const from = input.currencyFrom.toUpperCase();
  const to = input.currencyTo.toUpperCase();
  if ((input.type === 'buy' || input.type === 'sell') && !options.buySellEnabled) throw new DomainError('buy_sell_disabled');
  if (!email) throw new DomainError('invalid_email', 'email');
  const fromCurrency = from === 'EUR' ? null : currencyByCode(from);
  const toCurrency = to === 'EUR' ? null : currencyByCode(to);
  if (fromCurrency === undefined) throw unknownCurrency('currencyFrom');
  if (toCurrency === undefined) throw unknownCurrency('currencyTo');

  const ownWallet = Boolean(input.sendToMyWallet || input.useMyWallet);
  // A partially supported currency cannot arrive from or leave for an outside wallet.
  if (toCurrency && isOwnWalletOnly(toCurrency) && !input.sendToMyWallet) throw new DomainError('own_wallet_only', 'currencyTo');
  if (fromCurrency && isOwnWalletOnly(fromCurrency) && !input.useMyWallet) throw new DomainError('own_wallet_only', 'currencyFrom');
  if (ownWallet && !options.account) throw new DomainError('login_required');
  if (ownWallet) await requireVerifications(db, options.account!.id, { usesWallet: true });
  // Paying a buy from a business bank account needs a verified business (spec section 6).
  const fromBusinessAccount = input.type === 'buy' && !input.useMyWallet && Boolean(input.fromBusinessAccount);
  if (fromBusinessAccount && !options.account) throw new DomainError('login_required', 'fromBusinessAccount');
  if (fromBusinessAccount) await requireVerifications(db, options.account!.id, { fromBusinessAccount: true });

  // The delivery address: a crypto address, or for a sell the IBAN that receives the euros.
  let address: string | null = null;
  if (toCurrency && !input.sendToMyWallet) {
    address = normalizeAddress(toCurrency.code, input.address ?? '');
    if (!address) throw new DomainError('invalid_address', 'address');
    // Muntly's XRP is one account told apart by tags; it cannot pay itself on the XRP Ledger.
    if (toCurrency.code === 'XRP' && xrpAccountOf(address) === options.xpubs.XRP) throw new DomainError('muntly_house_address', 'address');
  } else if (to === 'EUR' && !input.sendToMyWallet) {
    const payout = sepaIban(input.address ?? '');
    if (!payout.ok) throw new DomainError(payout.code, 'address');
    address = payout.iban;
  }

  const estimate = quote({ type: input.type, currencyFrom: from, currencyTo: to, amount: input.amount.trim(), rates: (await rates.current()).rates, toMuntlyWallet: input.sendToMyWallet });
  if (typeof estimate === 'string') throw quoteRefusal(estimate);

  // Stored in minor units; the quote checked the amount has no more decimals than its currency.
  const fromDecimals = decimalsOf(from)!;
  const toDecimals = decimalsOf(to)!;
  const amount = exactMinor(input.amount.trim(), fromDecimals);
  const amountEurMinor = exactMinor(estimate.amountEur, EUR_DECIMALS);
  if (amountEurMinor > ORDER_LIMIT_EUR_MINOR) throw new DomainError('order_limit', 'amount');

  const reference = newReference();
  const values = {
    reference,
    shortReference: reference.slice(0, 9),
    type: input.type,
    currencyFrom: from,
    currencyTo: to,
    amount,
    amountEur: amountEurMinor,
    email,
    accountId: options.account?.id ?? null,
    address,
    paymentMethod: input.type === 'buy' && !input.useMyWallet ? (input.paymentMethod ?? 'sepa') : null,
    sendToMyWallet: Boolean(input.sendToMyWallet),
    useMyWallet: Boolean(input.useMyWallet),
    fromBusinessAccount,
    estimatedRate: estimate.rate,
    estimatedAmountConverted: exactMinor(estimate.amountConverted, toDecimals),
    fee: exactMinor(estimate.fee, EUR_DECIMALS),
    estimatedNetworkFee: exactMinor(estimate.networkFee, toDecimals),
    idempotencyKey: options.idempotencyKey ?? null,
    language: options.language,
  };
  // The confirmation email, with the payment details (the receiving address is known later).
  const mailFor = (receivingAddress: string | null) => orderPlacedMail(options.language, { ...values, amount: minorToDecimal(amount, fromDecimals), receivingAddress }, options.bank);

  // Who the customer is, for their first-order cap and weekly volume: the account, the email, and
  // where the proceeds go (a new email with the same IBAN or address is the same customer).
  const customer = { accountId: options.account?.id ?? null, email, address };
  if (!options.account && !fromCurrency) {
    // An anonymous buy, most orders: the database checks the caps and places it in one round trip.
    const placed = await ordersRepository.placeAnonymous(db, { ...values, ...mailFor(null), receivingAddress: null }, { ...anonymousWeeklyCap(customer), firstOrderCap: FIRST_ORDER_LIMIT_EUR_MINOR });
    if ('refused' in placed) throw new DomainError(placed.refused, 'amount');
    return { order: placed.row, created: placed.row.reference === reference };
  }
  if (options.idempotencyKey) {
    const known = await ordersRepository.findByIdempotencyKey(db, options.idempotencyKey);
    if (known) return { order: known, created: false };
  }
  const created = await db.transaction(async (tx) => {
    // Placements of one customer run one after another from here (a lock per key), so that two
    // orders placed at the same instant cannot each pass a cap that both together exceed.
    await lockWeeklyVolume(tx, customer);
    if (amountEurMinor > FIRST_ORDER_LIMIT_EUR_MINOR && !(await hasCompletedOrder(tx, customer))) throw new DomainError('first_order_limit', 'amount');
    // Sell and swap from outside: a fresh house address that only this order uses.
    const receivingAddress = fromCurrency && !input.useMyWallet ? (await nextHouseAddress(tx, options.xpubs, fromCurrency.code as (typeof DERIVED_CURRENCIES)[number], 'orders')).address : null;
    const row = await ordersRepository.insertPlaced(tx, { ...values, ...mailFor(receivingAddress), receivingAddress });
    if (!row) return null; // the Idempotency-Key arrived twice at once: the other request placed it
    let placed = row;
    if (input.useMyWallet) {
      // Paid from the wallet at once, in this transaction: the ledger refuses an overdraft and
      // the order is not placed then.
      await transfer(tx, {
        id: `order-debit:${row.id}`,
        currency: from,
        debitAccountId: (await userAccount(tx, options.account!.id, from)).id,
        creditAccountId: (await systemAccount(tx, 'exchange', from)).id,
        amount,
        code: 'order',
        metadata: { orderId: row.id, reference, label: input.type, eurValue: minorToDecimal(amountEurMinor, EUR_DECIMALS) },
      });
      const now = new Date();
      placed = await ordersRepository.update(tx, row.id, { status: 'processing', amountReceived: amount, fundedAt: now, updatedAt: now });
    }
    // The week's volume, this order included (it is written): refused, nothing of it stays.
    await requireWithinWeeklyVolume(tx, rates, customer, 0n, { usesWallet: ownWallet });
    return placed;
  });
  if (created) return { order: created, created: true };
  const known = await ordersRepository.findByIdempotencyKey(db, options.idempotencyKey ?? null);
  if (known) return { order: known, created: false };
  throw new DomainError('try_again_soon');
}

/**
 * A customer stays new — their orders capped at 100 EUR (spec section 5) — until one of their
 * orders, by email or by account, has completed successfully: an unpaid or refunded order does
 * not count. `except` leaves out the order being settled.
 */
export function hasCompletedOrder(db: Db, customer: { accountId?: string | null; email?: string | null }, except?: string): Promise<boolean> {
  return ordersRepository.hasCompleted(db, customer, except);
}

/** The logged-in user's orders (placed while logged in), newest first. */
export function ordersOf(db: Db, accountId: string): Promise<OrderRow[]> {
  return ordersRepository.ofAccount(db, accountId, MY_ORDERS_SHOWN);
}

export const findOrderById = (db: Db, id: string) => ordersRepository.findById(db, id);

/** Order ids -> their references (for lists that name the order a payment went to). */
export async function orderReferences(db: Db, ids: string[]): Promise<Map<string, string>> {
  return new Map((await ordersRepository.referencesOf(db, [...new Set(ids)])).map((o) => [o.id, o.reference]));
}

/** Every sell and swap order's receiving address, by currency (the reserves list them with the proof of liabilities). */
export function receivingAddresses(db: Db): Promise<{ currency: string; address: string }[]> {
  return ordersRepository.receivingAddresses(db);
}

/**
 * Operators: orders by a reference (full or short, any case or spacing) or by part of an email
 * address, by status, type and the days they were placed on (UTC), newest first, each with its
 * account's key. `account`: the orders of an account — placed while logged in, or with its email.
 */
export function searchOrders(
  db: Db,
  filter: { q?: string; status?: OrderRow['status']; type?: OrderRow['type']; from?: string; to?: string; account?: { id: string; email: string | null } },
  limit: number,
) {
  const letters = (filter.q ?? '').toUpperCase().replace(/[\s-]/g, '');
  const byReference = /^[A-Z]{16}$/.test(letters) ? { reference: normalizeCode(letters)! } : /^[A-Z]{8}$/.test(letters) ? { shortReference: `${letters.slice(0, 4)}-${letters.slice(4)}` } : {};
  const byEmail = filter.q && !byReference.reference && !byReference.shortReference ? { emailContains: emailKey(filter.q) } : {};
  return ordersRepository.search(
    db,
    {
      ...byReference,
      ...byEmail,
      status: filter.status,
      type: filter.type,
      from: filter.from ? new Date(`${filter.from}T00:00:00Z`) : undefined,
      until: filter.to ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000) : undefined,
      ...(filter.account ? { accountId: filter.account.id, email: filter.account.email ?? undefined } : {}),
    },
    limit,
  );
}

/** Email + full reference -> the order; anything else is one uniform "not found". */
export async function lookupOrder(db: Db, email: string, reference: string): Promise<OrderRow> {
  const normalized = normalizeCode(reference);
  const row = normalized ? await ordersRepository.findByEmailAndReference(db, emailKey(email), normalized) : undefined;
  if (!row) throw new DomainError('not_found', undefined, 'No order matches this email address and reference.');
  return row;
}
