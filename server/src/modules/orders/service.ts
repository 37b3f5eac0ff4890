import { randomBytes } from 'node:crypto';
import { and, eq, ne, or, sql } from 'drizzle-orm';
import { normalizeAddress, xrpAccountOf } from '../../../../domain/addresses';
import { codeFromBytes, normalizeCode } from '../../../../domain/codes';
import { currencyByCode, decimalsOf, isOwnWalletOnly } from '../../../../domain/currencies';
import { normalizeEmail } from '../../../../domain/email';
import { epcPayload } from '../../../../domain/epc';
import { DomainError, unknownCurrency } from '../../../../domain/errors';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import { EUR_DECIMALS, eur, exactMinor, minorToDecimal } from '../../../../domain/money';
import { quote } from '../../../../domain/quotes';
import { sepaIban } from '../../../../domain/sepa';
import { rowOf } from '../../db/row';
import { orders, outbox } from '../../db/schema';
import { nextHouseAddress, type DERIVED_CURRENCIES, type Xpubs } from '../chain/service';
import { requireVerifications } from '../identity/service';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { messageText } from '../notify/service';
import { quoteRefusal, type RatesAdapter } from '../rates/service';
import { lockWeeklyVolume, requireWithinWeeklyVolume } from '../volume/service';
import type { BankAccount, Order, PaymentMethod, PlaceOrderBody } from '../../../../domain/contracts/orders';
import type { Language } from '../../../../domain/languages';
import type { Db } from '../../db/client';
import type { AccountRow } from '../accounts/service';

/**
 * Placing exchange orders (spec section 5, every rule with its code). Invariants: a reference is
 * unique; the same Idempotency-Key places one order; the first order of a customer (by email, and
 * by account when logged in) is at most 100 EUR, any order at most 30,000 EUR.
 */
export type OrderRow = typeof orders.$inferSelect;
/** The account buyers and depositors pay to (GET /api/exchange/config). */
export type BankDetails = BankAccount;

export function newReference(): string {
  for (;;) {
    const code = codeFromBytes(randomBytes(32));
    if (code) return code;
  }
}

/**
 * The statements of placing an order, built once per database and prepared: building a drizzle
 * query over a 35-column table costs more CPU than PostgreSQL spends running it.
 *
 * `insert` writes the order, if its Idempotency-Key is new, together with its confirmation
 * email — both or neither. `existing` finds the order of an Idempotency-Key.
 */
const P = (name: string) => sql.placeholder(name);
function placeQueries(q: Db, name: string | null) {
  // Unnamed (name null) inside a transaction: planned each time, nothing left on the connection.
  const named = (suffix: string) => (name ? `${name}_${suffix}` : '');
  const existing = q
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, P('key')))
    .prepare(named('existing'));
  const columns = [
    'reference',
    'shortReference',
    'type',
    'currencyFrom',
    'currencyTo',
    'amount',
    'amountEur',
    'email',
    'accountId',
    'address',
    'paymentMethod',
    'sendToMyWallet',
    'useMyWallet',
    'fromBusinessAccount',
    'estimatedRate',
    'estimatedAmountConverted',
    'fee',
    'estimatedNetworkFee',
    'idempotencyKey',
    'language',
    'receivingAddress',
  ] as const;
  const inserted = q.$with('inserted').as(
    q
      .insert(orders)
      .select(q.select(rowOf(orders, Object.fromEntries(columns.map((c) => [c, P(c)])))).from(sql`(select 1) as one`))
      .onConflictDoNothing()
      .returning(),
  );
  const confirmation = q.$with('confirmation').as(
    q
      .insert(outbox)
      .select(q.select(rowOf(outbox, { channel: sql`'email'`, recipient: inserted.email, subject: P('subject'), body: P('body'), accountId: inserted.accountId })).from(inserted))
      .returning({ id: outbox.id }),
  );
  const insert = q.with(inserted, confirmation).select().from(inserted).prepare(named('insert'));
  return { existing, insert };
}
const prepared = new WeakMap<Db, ReturnType<typeof placeQueries>>();
function preparedFor(db: Db) {
  let queries = prepared.get(db);
  if (!queries) prepared.set(db, (queries = placeQueries(db, 'place_order')));
  return queries;
}

/**
 * An order's money as the API shows it: the stored minor units as decimal strings with all the
 * decimals of their currency (amount and amountReceived in currencyFrom, converted amounts and
 * network fees in currencyTo, amountEur and fees in EUR); rates as stored.
 */
export function orderMoney(row: OrderRow) {
  const from = decimalsOf(row.currencyFrom)!;
  const to = decimalsOf(row.currencyTo)!;
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

/** An order as the API shows it (domain/contracts/orders.ts). */
export function orderView(row: OrderRow, bank: BankDetails): Order {
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
          epcPayload: epcPayload({ bic: bank.bic, beneficiary: bank.beneficiary, iban: bank.iban, amountEur: money.amount, reason: row.shortReference }),
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
    failure: row.failureReason ? { reason: row.failureReason, refund: row.amountReceived === null ? null : (row.refund ?? 'bank') } : null,
    completedAt: row.completedAt?.toISOString() ?? null,
    businessHold: row.businessHold,
  };
}

export async function placeOrder(
  db: Db,
  rates: RatesAdapter,
  options: { buySellEnabled: boolean; xpubs: Xpubs; language: Language; account?: AccountRow; idempotencyKey?: string },
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
  const mail = messageText(options.language, 'orderPlaced', { reference, amount: minorToDecimal(amount, fromDecimals), currencyFrom: from, currencyTo: to, shortReference: values.shortReference });
  const params = { ...values, subject: mail.subject, body: mail.body };

  if (options.idempotencyKey) {
    const [known] = await preparedFor(db).existing.execute({ key: options.idempotencyKey });
    if (known) return { order: known, created: false };
  }
  // Who the customer is, for their first-order cap and weekly volume: the account, the email, and
  // where the proceeds go (a new email with the same IBAN or address is the same customer).
  const customer = { accountId: options.account?.id ?? null, email, address };
  const created = await db.transaction(async (tx) => {
    // Placements of one customer run one after another from here (a lock per key), so that two
    // orders placed at the same instant cannot each pass a cap that both together exceed.
    await lockWeeklyVolume(tx, customer);
    if (amountEurMinor > FIRST_ORDER_LIMIT_EUR_MINOR && !(await hasCompletedOrder(tx, customer))) throw new DomainError('first_order_limit', 'amount');
    // Sell and swap from outside: a fresh house address that only this order uses.
    const receivingAddress = fromCurrency && !input.useMyWallet ? (await nextHouseAddress(tx, options.xpubs, fromCurrency.code as (typeof DERIVED_CURRENCIES)[number])).address : null;
    const [row] = await placeQueries(tx, null).insert.execute({ ...params, receivingAddress });
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
        metadata: { orderId: row.id, reference, label: input.type },
      });
      const now = new Date();
      [placed] = await tx.update(orders).set({ status: 'processing', amountReceived: amount, fundedAt: now, updatedAt: now }).where(eq(orders.id, row.id)).returning();
    }
    // The week's volume, this order included (it is written): refused, nothing of it stays.
    await requireWithinWeeklyVolume(tx, rates, customer, 0n, { usesWallet: ownWallet });
    return placed!;
  });
  if (created) return { order: created, created: true };
  const [known] = await preparedFor(db).existing.execute({ key: options.idempotencyKey ?? null });
  if (known) return { order: known, created: false };
  throw new DomainError('try_again_soon');
}

/**
 * A customer stays new — their orders capped at 100 EUR (spec section 5) — until one of their
 * orders, by email or by account, has completed successfully: an unpaid or refunded order does
 * not count. `except` leaves out the order being settled.
 */
export async function hasCompletedOrder(db: Db, customer: { accountId?: string | null; email?: string | null }, except?: string): Promise<boolean> {
  const match = [customer.email ? eq(orders.email, customer.email) : undefined, customer.accountId ? eq(orders.accountId, customer.accountId) : undefined].filter((m) => m !== undefined);
  if (match.length === 0) return false;
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'completed_success'), or(...match), except ? ne(orders.id, except) : undefined))
    .limit(1);
  return row !== undefined;
}

/** The logged-in user's orders (placed while logged in), newest first. */
export async function ordersOf(db: Db, accountId: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(eq(orders.accountId, accountId))
    .orderBy(sql`${orders.createdAt} desc`)
    .limit(200);
}

/** Email + full reference -> the order; anything else is one uniform "not found". */
export async function lookupOrder(db: Db, email: string, reference: string): Promise<OrderRow> {
  const normalized = normalizeCode(reference);
  const [row] = normalized
    ? await db
        .select()
        .from(orders)
        .where(and(eq(orders.reference, normalized), eq(orders.email, email.trim().toLowerCase())))
    : [];
  if (!row) throw new DomainError('not_found', undefined, 'No order matches this email address and reference.');
  return row;
}
