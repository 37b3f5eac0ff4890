import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import Big from 'big.js';
import type { Db } from '../../db/client';
import { rowOf } from '../../db/row';
import { orders, outbox } from '../../db/schema';
import { ApiError } from '../../errors';
import type { AccountRow } from '../accounts/repository';
import { requireVerifications } from '../identity/service';
import type { RatesAdapter } from '../rates/service';
import { currencyByCode, isOwnWalletOnly } from '../../../../domain/currencies';
import { normalizeAddress } from '../../../../domain/addresses';
import { codeFromBytes, normalizeCode } from '../../../../domain/codes';
import { quote } from '../../../../domain/quotes';
import { epcPayload } from '../../../../domain/epc';
import { normalizeEmail } from '../../../../domain/email';
import type { OrderInput, OrderStatus, Refund } from '../../../../domain/orders';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../../domain/limits';
import { decimalToMinor, eur } from '../../../../domain/money';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { nextHouseAddress } from '../wallet/addresses';
import type { DERIVED_CURRENCIES, Xpubs } from '../chain/derive';
import { messageText } from '../notify/service';
import type { Language } from '../../../../src/i18n/languages';

/**
 * Placing exchange orders (spec section 5, every rule with its code). Invariants: a reference is
 * unique; the same Idempotency-Key places one order; the first order of a customer (by email, and
 * by account when logged in) is at most 100 EUR, any order at most 30,000 EUR.
 */
export type OrderRow = typeof orders.$inferSelect;
export type BankDetails = { iban: string; bic: string; beneficiary: string };


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
 * `insert` is the whole of placing an order in one round trip: it writes the order only if it
 * fits the first-order cap (`small`, or the customer has ordered before, by email or account)
 * and its Idempotency-Key is new, together with its confirmation email — both or neither.
 * `known` runs only when nothing was written, to say why.
 */
const P = (name: string) => sql.placeholder(name);
function placeQueries(q: Db, name: string | null) {
  // Unnamed (name null) inside a transaction: planned each time, nothing left on the connection.
  const named = (suffix: string) => (name ? `${name}_${suffix}` : '');
  const orderedBefore = sql`exists (select 1 from ${orders} where ${orders.email} = ${P('email')} or ${orders.accountId} = ${P('accountId')}::uuid)`;
  const known = q
    .select({
      existing: sql<string | null>`(select id from ${orders} where ${orders.idempotencyKey} = ${P('key')})`,
      ordered: sql<boolean>`${orderedBefore}`,
    })
    .from(sql`(select 1) as one`)
    .prepare(named('known'));
  const columns = [
    'reference', 'shortReference', 'type', 'currencyFrom', 'currencyTo', 'amount', 'amountEur', 'email', 'accountId', 'address', 'paymentMethod', 'sendToMyWallet',
    'useMyWallet', 'estimatedRate', 'estimatedAmountConverted', 'fee', 'estimatedNetworkFee', 'idempotencyKey', 'language', 'receivingAddress',
  ] as const;
  const inserted = q.$with('inserted').as(
    q
      .insert(orders)
      .select(
        q
          .select(rowOf(orders, Object.fromEntries(columns.map((c) => [c, P(c)]))))
          .from(sql`(select 1) as one`)
          .where(sql`${P('small')}::boolean or ${orderedBefore}`),
      )
      .onConflictDoNothing()
      .returning(),
  );
  const confirmation = q.$with('confirmation').as(
    q
      .insert(outbox)
      .select(
        q
          .select(rowOf(outbox, { channel: sql`'email'`, recipient: inserted.email, subject: P('subject'), body: P('body'), accountId: inserted.accountId }))
          .from(inserted),
      )
      .returning({ id: outbox.id }),
  );
  const insert = q.with(inserted, confirmation).select().from(inserted).prepare(named('insert'));
  return { known, insert };
}
const prepared = new WeakMap<Db, ReturnType<typeof placeQueries>>();
function preparedFor(db: Db) {
  let queries = prepared.get(db);
  if (!queries) prepared.set(db, (queries = placeQueries(db, 'place_order')));
  return queries;
}

/** Where the customer sends the crypto of a sell or swap (XRP: the house address and the tag apart). */
function receivingOf(row: OrderRow) {
  if (!row.receivingAddress) return null;
  const [address, tag] = row.currencyFrom === 'XRP' ? row.receivingAddress.split(':') : [row.receivingAddress];
  return { currency: row.currencyFrom, address: address!, tag: tag ?? null, amount: row.amount };
}

export function orderView(row: OrderRow, bank: BankDetails) {
  const paymentDetails =
    row.type === 'buy' && !row.useMyWallet
      ? {
          iban: bank.iban,
          bic: bank.bic,
          beneficiary: bank.beneficiary,
          amount: new Big(row.amount).toFixed(2),
          reason: row.shortReference,
          methods: ['sepa', 'sepa_instant'],
          epcPayload: epcPayload({ bic: bank.bic, beneficiary: bank.beneficiary, iban: bank.iban, amountEur: new Big(row.amount).toFixed(2), reason: row.shortReference }),
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
    failure: row.failureReason ? { reason: row.failureReason, refund: (row.refund ?? 'bank') as Refund } : null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export async function placeOrder(
  db: Db,
  rates: RatesAdapter,
  options: { buySellEnabled: boolean; xpubs: Xpubs; language: Language; account?: AccountRow; idempotencyKey?: string },
  input: OrderInput,
): Promise<{ order: OrderRow; created: boolean }> {
  const email = normalizeEmail(input.email) ?? '';
  const from = input.currencyFrom.toUpperCase();
  const to = input.currencyTo.toUpperCase();
  if ((input.type === 'buy' || input.type === 'sell') && !options.buySellEnabled) throw new ApiError(403, 'buy_sell_disabled');
  if (!email) throw new ApiError(400, 'invalid_email', 'email');
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

  const reference = newReference();
  const amount = input.amount.trim();
  const values = {
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
  };
  const mail = messageText(options.language, 'orderPlaced', { reference, amount, currencyFrom: from, currencyTo: to, shortReference: values.shortReference });
  const params = { ...values, receivingAddress: null as string | null, subject: mail.subject, body: mail.body, small: amountEurMinor <= FIRST_ORDER_LIMIT_EUR_MINOR };
  const insertWithMail = async (q: Db, receivingAddress: string | null): Promise<OrderRow | null> => {
    const query = q === db ? preparedFor(db).insert : placeQueries(q, null).insert;
    const [row] = await query.execute({ ...params, receivingAddress });
    return row ?? null;
  };

  const needsTransaction = Boolean(input.useMyWallet) || (fromCurrency !== null && !input.useMyWallet);
  const created = !needsTransaction
    ? await insertWithMail(db, null) // a buy paid by bank: one round trip
    : await db.transaction(async (tx) => {
        // Sell and swap from outside: a fresh house address that only this order uses.
        const receivingAddress =
          fromCurrency && !input.useMyWallet ? (await nextHouseAddress(tx as Db, options.xpubs, fromCurrency.code as (typeof DERIVED_CURRENCIES)[number])).address : null;
        const row = await insertWithMail(tx as Db, receivingAddress);
        if (!row || !input.useMyWallet) return row;
        // Paid from the wallet at once, in this transaction: the ledger refuses an overdraft and
        // the order is not placed then.
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
        const [paid] = await tx.update(orders).set({ status: 'processing', amountReceived: amount, fundedAt: now, updatedAt: now }).where(eq(orders.id, row.id)).returning();
        return paid!;
      });
  if (created) return { order: created, created: true };

  // Nothing written: the Idempotency-Key was used (this request, placed before, or twice at once),
  // or this is a new customer's first order over the cap.
  const [known] = await preparedFor(db).known.execute({ key: options.idempotencyKey ?? null, email, accountId: options.account?.id ?? null });
  if (known?.existing) {
    const [existing] = await db.select().from(orders).where(eq(orders.id, known.existing));
    return { order: existing!, created: false };
  }
  if (!known?.ordered && amountEurMinor > FIRST_ORDER_LIMIT_EUR_MINOR) {
    throw new ApiError(409, 'first_order_limit', 'amount', `Order rejected. The first order of each new customer is limited to ${eur(FIRST_ORDER_LIMIT_EUR_MINOR)} EUR.`);
  }
  throw new ApiError(503, 'try_again_soon');
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
