import { createHash, randomBytes } from 'node:crypto';
import { normalizeAddress, payoutOwnerKey, xrpAccountOf } from '#domain/addresses';
import { codeFromBytes, formatCode, normalizeCode } from '#domain/codes';
import { currencyByCode, knownDecimals } from '#domain/currencies';
import { emailLinkKey } from '#domain/customer-key';
import { emailKey, normalizeEmail } from '#domain/email';
import { DomainError, secondsToWait, unknownCurrency, type ErrorCode } from '#domain/errors';
import { CODE_TTL_MINUTES, displayIban } from '#domain/identity';
import { isLanguage, type Language } from '#domain/languages';
import { FIRST_ORDER_LIMIT_EUR_MINOR } from '#domain/limits';
import { EUR_DECIMALS, exactMinor, minorToDecimal } from '#domain/money';
import { payeeName } from '#domain/payee';
import { quote } from '#domain/quotes';
import { withCheckLetter } from '#domain/references';
import { sameIban, sepaIban } from '#domain/sepa';
import { RateLimited } from '../../errors';
import { limitKey, takeLimits, type Limit } from '../../limits';
import { codeRefusal, judgeCode } from '../../one-time-codes';
import { accountKeysOf, type AccountRow } from '../accounts/service';
import { nextHouseAddress, type DERIVED_CURRENCIES, type Xpubs } from '../chain/service';
import {
  anonymousExchangeGate,
  exchangeEligibility,
  exchangeGate,
  walletOutflowGate,
  type Conversion,
  type ExchangePass,
  type Login,
  type WalletOutflow,
} from '../gates/service';
import { systemAccount, transfer, userAccount } from '../ledger/service';
import { sendLater } from '../notify/outbox-writer';
import { formatMoney } from '../notify/service';
import { sendSecurityEmail } from '../protection/mail';
import { quoteRefusal, type RatesAdapter } from '../rates/service';
import { ordersRepository, type OrderRow } from './repository';
import { orderMoney } from './views';
import type { PlaceOrderBody } from '#domain/contracts/orders';
import type { Db, Tx } from '../../db/client';
import type { OrderPlacedParams } from '../notify/order-placed';
import type { SecurityLinks } from '../protection/links';
import type { SendProtection } from '../protection/service';
import type { OrderLinks } from './links';
import type { BankDetails } from './views';

/**
 * Placing exchange orders (docs/decisions/0005, every rule with its code). Invariants: a reference is
 * unique; the same Idempotency-Key places one order; every rule of an exchange is the exchange
 * gate's (modules/gates), and an order paid from the wallet out of it passes the outflow gate too.
 */
export type { OrderRow };

/** How many of their orders a logged-in user sees. */
const MY_ORDERS_SHOWN = 200;

/**
 * A new order's reference: 16 random letters whose 8th is the check letter of the first seven
 * (domain/references.ts), so the short reference a payer writes is found anywhere in the
 * payment reason. 15 random letters, about 70 bits.
 */
export function newReference(): string {
  for (;;) {
    const code = codeFromBytes(randomBytes(32));
    if (code) return formatCode(withCheckLetter(code.replace(/-/g, '')));
  }
}

/** What placing an order needs besides the form: the settings, the customer's login, the page's language. */
export type PlaceOptions = {
  buySellEnabled: boolean;
  xpubs: Xpubs;
  bank: BankDetails;
  language: Language;
  account?: AccountRow;
  idempotencyKey?: string;
  /** Account protection's settings and links: an order paid from the wallet to a destination outside it is a send. */
  protection: SendProtection;
  /**
   * The limit of orders placed with one email address, and whose count it is (the email's link
   * key): a use is taken for an order placed, none for a refusal or a replayed Idempotency-Key.
   */
  emailLimit?: { limit: Limit; subject: string };
  /** The signed link to the order its confirmation email carries (links.ts), and how many days it has to be paid. */
  orderLinks?: OrderLinks;
  expiryDays?: number;
};

/**
 * Places an order. Every rule is the exchange gate's (modules/gates): judged before the quote for
 * what can be said at once, then with the amount in the transaction that writes the order. An
 * order paid from the wallet to a destination outside it is also an outflow: it passes the
 * outflow gate like a wallet send, and waits (status new) for the code emailed to the account's
 * owner (`confirmWalletOrder`), which takes the money from the wallet.
 */
export async function placeOrder(
  db: Db,
  rates: RatesAdapter,
  options: PlaceOptions,
  input: PlaceOrderBody,
): Promise<{ order: OrderRow; created: boolean }> {
  const from = input.currencyFrom.toUpperCase();
  const to = input.currencyTo.toUpperCase();
  const fromCurrency = from === 'EUR' ? null : currencyByCode(from);
  const toCurrency = to === 'EUR' ? null : currencyByCode(to);
  const { account } = options;
  // For a logged-in customer who pays from or into the wallet, the account is the customer: the
  // order's emails go to the account's address, whatever the form said.
  const fromWallet = Boolean(input.useMyWallet);
  const toWallet = Boolean(input.sendToMyWallet);
  const email = account?.email && (fromWallet || toWallet) ? account.email : (normalizeEmail(input.email) ?? '');
  if ((input.type === 'buy' || input.type === 'sell') && !options.buySellEnabled)
    throw new DomainError('buy_sell_disabled');
  if (!email) throw new DomainError('invalid_email', 'email');
  if (fromCurrency === undefined) throw unknownCurrency('currencyFrom');
  if (toCurrency === undefined) throw unknownCurrency('currencyTo');
  // Paying a buy from a business bank account needs a verified business (docs/decisions/0008).
  const fromBusinessAccount = input.type === 'buy' && !fromWallet && Boolean(input.fromBusinessAccount);
  const deps = { rates, buySellEnabled: options.buySellEnabled };
  const conversion: Conversion = {
    path: fromWallet || toWallet ? 'own_wallet_order' : account ? 'account_order' : 'anonymous_order',
    type: input.type,
    currencyFrom: from,
    currencyTo: to,
    fromWallet,
    toWallet,
    fromBusinessAccount,
    accountId: account?.id ?? null,
    keys: { emailKey: emailLinkKey(email) },
  };
  await exchangeEligibility(db, deps, conversion);

  // The delivery address: a crypto address, or for a sell the IBAN that receives the euros.
  let address: string | null = null;
  let beneficiary: string | null = null;
  if (toCurrency && !toWallet) {
    address = normalizeAddress(toCurrency.code, input.address ?? '');
    if (!address) throw new DomainError('invalid_address', 'address');
    // Muntly's XRP is one account told apart by tags; it cannot pay itself on the XRP Ledger.
    if (toCurrency.code === 'XRP' && xrpAccountOf(address) === options.xpubs.XRP)
      throw new DomainError('muntly_house_address', 'address');
  } else if (to === 'EUR' && !toWallet) {
    const payout = sepaIban(input.address ?? '');
    if (!payout.ok) throw new DomainError(payout.code, 'address');
    // Muntly's own account would pay Muntly: the order would complete and the customer get nothing.
    if (sameIban(payout.iban, options.bank.iban)) throw new DomainError('muntly_iban', 'address');
    address = payout.iban;
    // The payee's bank checks the name against the IBAN (verification of payee): the holder's name
    // goes with the IBAN, in the Latin letters the transfer carries.
    const holder = payeeName(input.beneficiary ?? '');
    if (!holder.ok) throw new DomainError(holder.code, 'beneficiary');
    beneficiary = holder.name;
  }
  conversion.keys.payoutKey = address && payoutOwnerKey(to, address);

  const estimate = quote({
    type: input.type,
    currencyFrom: from,
    currencyTo: to,
    amount: input.amount.trim(),
    rates: (await rates.current()).rates,
    toMuntlyWallet: toWallet,
  });
  if (typeof estimate === 'string') throw quoteRefusal(estimate);

  // Stored in minor units; the quote checked the amount has no more decimals than its currency.
  const fromDecimals = knownDecimals(from);
  const amount = exactMinor(input.amount.trim(), fromDecimals);
  const amountEurMinor = estimate.amountEur.minor;
  // Paid from the wallet to an address or IBAN outside it: a send, confirmed by an emailed code.
  const outflow = fromWallet && !toWallet;

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
    emailKey: conversion.keys.emailKey!,
    accountId: account?.id ?? null,
    address,
    beneficiary,
    payoutKey: conversion.keys.payoutKey ?? null,
    paymentMethod: input.type === 'buy' && !fromWallet ? (input.paymentMethod ?? 'sepa') : null,
    sendToMyWallet: toWallet,
    useMyWallet: fromWallet,
    fromBusinessAccount,
    estimatedRate: estimate.rate,
    estimatedAmountConverted: estimate.amountConverted.minor,
    fee: estimate.fee.minor,
    estimatedNetworkFee: estimate.networkFee.minor,
    idempotencyKey: options.idempotencyKey ?? null,
    language: options.language,
  };
  // What the confirmation email is written from, with the payment details (the receiving address
  // is known later): the outbox keeps these, and notify's writer writes the email after the
  // transaction (notify/outbox-writer.ts), so the placement neither writes nor stores the email.
  const mailFor = (receivingAddress: string | null): OrderPlacedParams => ({
    language: options.language,
    order: {
      reference,
      shortReference: values.shortReference,
      type: values.type,
      currencyFrom: from,
      currencyTo: to,
      amount: minorToDecimal(amount, fromDecimals),
      useMyWallet: fromWallet,
      receivingAddress,
      address,
      beneficiary,
    },
    bank: options.bank,
    link: options.orderLinks?.url(reference, options.language),
    expiryDays: options.expiryDays,
    placedAt: new Date().toISOString(),
  });

  if (!account && !fromCurrency) {
    // An anonymous buy, most orders: the database applies the gate's caps and places it in one round trip.
    // The email's placement limit is taken in that statement too.
    const { pass, inDatabase } = await anonymousExchangeGate(db, deps, { ...conversion, amountEurMinor });
    const { emailLimit } = options;
    const limit = emailLimit && {
      key: limitKey(emailLimit.limit, emailLimit.subject),
      max: emailLimit.limit.max,
      windowMs: emailLimit.limit.windowMs,
    };
    const placed = await ordersRepository.placeAnonymous(
      db,
      { ...values, receivingAddress: null },
      mailFor(null),
      { ...inDatabase, firstOrderCap: FIRST_ORDER_LIMIT_EUR_MINOR, limit },
      pass,
    );
    if ('refused' in placed) throw new DomainError(placed.refused, 'amount');
    if ('waitMs' in placed) throw new RateLimited(secondsToWait(placed.waitMs));
    return { order: placed.row, created: placed.row.reference === reference };
  }
  // Taken before the order is placed (two replicas at once cannot both take the last one) and
  // given back when none was: a refusal, or the replay of an Idempotency-Key.
  const placing = options.emailLimit ? await takeLimits(db, [options.emailLimit]) : null;
  const placed = await placeInTransaction().catch(async (error: unknown) => {
    await placing?.release();
    throw error;
  });
  if (!placed.created) await placing?.release();
  return placed;

  /** A logged-in customer's order, or a sell or swap: the exchange gate and the order in one transaction. */
  async function placeInTransaction(): Promise<{ order: OrderRow; created: boolean }> {
    if (options.idempotencyKey) {
      const known = await ordersRepository.findByIdempotencyKey(db, options.idempotencyKey);
      if (known) return { order: known, created: false };
    }
    const outflowDeps = { rates, protection: options.protection.settings };
    // The outflow's own rules are said early (a frozen account, an address not in the book), before a code is mailed.
    if (outflow) await db.transaction((tx) => walletOutflowGate(tx, outflowDeps, walletOutflowOf(account!.id, values)));
    // A code has the form of a reference (16 letters from 32 random bytes), and is drawn the same way.
    const code = outflow ? newReference() : null;
    const created = await db.transaction(async (tx) => {
      // Placements of one customer run one after another from here (the gate locks the customer),
      // so that two orders placed at the same instant cannot each pass a cap that both together exceed.
      const pass = await exchangeGate(tx, deps, { ...conversion, amountEurMinor, stage: 'placement' });
      // Sell and swap from outside: a fresh house address that only this order uses.
      const receivingAddress =
        fromCurrency && !fromWallet
          ? (
              await nextHouseAddress(
                tx,
                options.xpubs,
                fromCurrency.code as (typeof DERIVED_CURRENCIES)[number],
                'orders',
              )
            ).address
          : null;
      const codeFields = code
        ? { codeHash: orderCodeHash(reference, code), codeExpiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000) }
        : { codeHash: null, codeExpiresAt: null };
      const row = await ordersRepository.insertPlaced(tx, { ...values, ...codeFields, receivingAddress }, pass);
      if (!row) return null; // the Idempotency-Key arrived twice at once: the other request placed it
      // Its confirmation email, through notify (the outbox is notify's), in this transaction: both or neither.
      await sendLater(tx, {
        recipient: row.email,
        accountId: row.accountId,
        template: 'orderPlaced',
        params: mailFor(receivingAddress),
      });
      if (code) {
        await mailOrderCode(tx, options.protection.links, account!, row, code);
        return row;
      }
      // Paid from the wallet into the wallet (a swap or a sell kept in euros): nothing leaves it,
      // so it is taken at once, in this transaction; the ledger refuses an overdraft.
      return fromWallet ? await debitWallet(tx, row, pass) : row;
    });
    if (created) return { order: created, created: true };
    const known = await ordersRepository.findByIdempotencyKey(db, options.idempotencyKey ?? null);
    if (known) return { order: known, created: false };
    throw new DomainError('try_again_soon');
  }
}

/** The outflow an order paid from the wallet to a destination outside it makes. */
function walletOutflowOf(
  accountId: string,
  order: Pick<OrderRow, 'currencyFrom' | 'currencyTo' | 'address' | 'amount' | 'amountEur'>,
  login?: Login,
): WalletOutflow {
  return {
    path: 'own_wallet_order',
    accountId,
    currency: order.currencyFrom,
    // The address book judges the address in the currency the order delivers there.
    destination: { currency: order.currencyTo, address: order.address! },
    internal: false,
    debitMinor: order.amount,
    eurValueMinor: order.amountEur,
    login,
  };
}
/** Bound to the order: a code mailed for one order confirms no other. */
export const orderCodeHash = (reference: string, code: string) =>
  createHash('sha256').update(`order:${reference}:${code}`).digest('hex');

/** The code for an order paid from the wallet, to the account's owner: a security email, with the freeze link. */
async function mailOrderCode(
  tx: Tx,
  links: SecurityLinks,
  account: Pick<AccountRow, 'id' | 'email'>,
  order: OrderRow,
  code: string,
): Promise<void> {
  const language = isLanguage(order.language) ? order.language : 'en';
  const money = orderMoney(order);
  await sendSecurityEmail(tx, links, {
    accountId: account.id,
    email: account.email,
    language,
    key: 'orderCode',
    values: {
      code,
      reference: order.reference,
      amount: formatMoney(language, money.amount, order.currencyFrom),
      converted: formatMoney(language, money.estimatedAmountConverted, order.currencyTo),
      // A sell names the account holder beside the IBAN, as the transfer will (verification of payee).
      address: order.beneficiary ? `${order.beneficiary}, ${displayIban(order.address!)}` : order.address!,
    },
  });
}

/** Takes an order's amount from the wallet (the ledger refuses an overdraft) and starts its processing: the exchange gate admitted it. */
async function debitWallet(tx: Tx, order: OrderRow, _pass: ExchangePass): Promise<OrderRow> {
  await transfer(tx, {
    id: `order-debit:${order.id}`,
    currency: order.currencyFrom,
    debitAccountId: (await userAccount(tx, order.accountId!, order.currencyFrom)).id,
    creditAccountId: (await systemAccount(tx, 'exchange', order.currencyFrom)).id,
    amount: order.amount,
    code: 'order',
    metadata: {
      orderId: order.id,
      reference: order.reference,
      label: order.type,
      eurValue: minorToDecimal(order.amountEur, EUR_DECIMALS),
    },
  });
  const now = new Date();
  return ordersRepository.update(tx, order.id, {
    status: 'processing',
    amountReceived: order.amount,
    fundedAt: now,
    updatedAt: now,
  });
}

type ConfirmOutcome = { ok: true; order: OrderRow } | { ok: false; code: ErrorCode; message?: string; field?: string };

/**
 * The owner confirms an order paid from their wallet to a destination outside it with the code
 * mailed for it — a send like any other: in one transaction the outflow gate (account protection,
 * a recent login, a second factor above the day's threshold, the week) and the exchange gate judge
 * it again with the amount counted, the code is judged (a wrong one counts, committed), and the
 * money leaves the wallet. Refusals of the gates come before the code is judged (no attempt spent).
 */
export async function confirmWalletOrder(
  db: Db,
  deps: { rates: RatesAdapter; buySellEnabled: boolean; protection: SendProtection },
  input: { account: Pick<AccountRow, 'id' | 'email'>; reference: string; code: string; login: Login },
): Promise<OrderRow> {
  const reference = normalizeCode(input.reference);
  if (!reference) throw new DomainError('not_found');
  const code = normalizeCode(input.code);
  if (!code) throw new DomainError('invalid_code_format', 'code');
  const outcome = await db.transaction(async (tx): Promise<ConfirmOutcome> => {
    const order = await ordersRepository.lockByReference(tx, reference);
    // Someone else's order, or one that needs no code: the same answer as none at all.
    if (!order || order.accountId !== input.account.id || !order.codeHash) return { ok: false, code: 'not_found' };
    if (order.status !== 'new' || order.fundedAt) return { ok: false, code: 'order_not_open', field: 'code' };
    try {
      await walletOutflowGate(
        tx,
        { rates: deps.rates, protection: deps.protection.settings },
        walletOutflowOf(order.accountId, order, input.login),
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { ok: false, code: error.code, field: error.field };
    }
    const verdict = judgeCode(
      { hash: order.codeHash, attempts: order.codeAttempts, expiresAt: order.codeExpiresAt! },
      orderCodeHash(order.reference, code),
    );
    if (verdict.kind === 'wrong') await ordersRepository.update(tx, order.id, { codeAttempts: verdict.attempts });
    if (verdict.kind !== 'valid') return { ok: false, ...codeRefusal(verdict), field: 'code' };
    const pass = await exchangeGate(
      tx,
      { rates: deps.rates, buySellEnabled: deps.buySellEnabled },
      { ...conversionOf(order), stage: 'placement' },
    );
    return { ok: true, order: await debitWallet(tx, order, pass) };
  });
  if (!outcome.ok) throw new DomainError(outcome.code, outcome.field, outcome.message);
  return outcome.order;
}

/** An order written before as the exchange gate sees it (its customer: the account, or what the order names). */
export function conversionOf(order: OrderRow): Conversion & { amountEurMinor: bigint; except: string } {
  return {
    path:
      order.type === 'deposit'
        ? 'deposit_conversion'
        : order.useMyWallet || order.sendToMyWallet
          ? 'own_wallet_order'
          : order.accountId
            ? 'account_order'
            : 'anonymous_order',
    type: order.type === 'deposit' ? 'buy' : (order.type as Conversion['type']),
    currencyFrom: order.currencyFrom,
    currencyTo: order.currencyTo,
    fromWallet: order.useMyWallet,
    toWallet: order.sendToMyWallet || order.type === 'deposit',
    // Judged when it was placed or marked: a buy paid from a business account is held, funded and
    // not converted, until a verified business stands behind it (intake's businessMarks).
    fromBusinessAccount: false,
    accountId: order.accountId,
    keys: { emailKey: order.emailKey, payoutKey: order.payoutKey, payerKey: order.payerKey },
    releasedByOperator: order.reviewReleasedBy !== null,
    amountEurMinor: order.amountEur,
    except: order.id,
  };
}

/** The logged-in user's orders (placed while logged in), newest first. */
export function ordersOf(db: Db, accountId: string): Promise<OrderRow[]> {
  return ordersRepository.ofAccount(db, accountId, MY_ORDERS_SHOWN);
}

export const findOrderById = (db: Db, id: string) => ordersRepository.findById(db, id);

/** Whether an order has this exact reference (support keeps a request that names one as long as the order's records). */
export const orderExists = (db: Db, reference: string) => ordersRepository.existsByReference(db, reference);

/** Paid orders the worker still has to convert, and those funded before the cutoff (GET /api/status). */
export const orderBacklog = (db: Db, cutoff: Date) => ordersRepository.settlementBacklog(db, cutoff);

/** An order by its full reference (any case), locked for a change in the caller's transaction (bank/returns.ts). */
export const lockOrderByReference = (tx: Tx, reference: string) =>
  ordersRepository.lockByReference(tx, reference.trim().toUpperCase());

/** A payout of the order came back, or a new one was booked (bank/returns.ts): the order's page follows, and says whether it waits for approval. */
export const orderPayoutChanged = (tx: Tx, id: string, awaitingApproval?: boolean) =>
  ordersRepository.update(tx, id, {
    updatedAt: new Date(),
    ...(awaitingApproval === undefined ? {} : { payoutAwaitingApproval: awaitingApproval }),
  });

/** Order ids -> their references (for lists that name the order a payment went to). */
export async function orderReferences(db: Db, ids: string[]): Promise<Map<string, string>> {
  return new Map((await ordersRepository.referencesOf(db, [...new Set(ids)])).map((o) => [o.id, o.reference]));
}

/** Order ids -> their references and accounts (null: placed anonymously). */
export async function orderReferencesAndAccounts(
  db: Db,
  ids: string[],
): Promise<Map<string, { reference: string; accountId: string | null }>> {
  const rows = await ordersRepository.referencesOf(db, [...new Set(ids)]);
  return new Map(rows.map((o) => [o.id, { reference: o.reference, accountId: o.accountId }]));
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
export async function searchOrders(
  db: Db,
  filter: {
    q?: string;
    status?: OrderRow['status'];
    type?: OrderRow['type'];
    from?: string;
    to?: string;
    account?: { id: string; email: string | null };
  },
  limit: number,
) {
  const letters = (filter.q ?? '').toUpperCase().replace(/[\s-]/g, '');
  const byReference = /^[A-Z]{16}$/.test(letters)
    ? { reference: normalizeCode(letters)! }
    : /^[A-Z]{8}$/.test(letters)
      ? { shortReference: `${letters.slice(0, 4)}-${letters.slice(4)}` }
      : {};
  const byEmail =
    filter.q && !byReference.reference && !byReference.shortReference ? { emailContains: emailKey(filter.q) } : {};
  const rows = await ordersRepository.search(
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
  // Each with its account's key, asked of accounts (the accounts table is theirs).
  const keys = await accountKeysOf(db, [...new Set(rows.flatMap((row) => (row.accountId ? [row.accountId] : [])))]);
  return rows.map((row) => ({ ...row, accountKey: row.accountId ? (keys.get(row.accountId) ?? null) : null }));
}

/**
 * The order a signed link opens (links.ts): a link that is not genuine or has expired says so; an
 * erased order is not found. With `reference`, only when the link is that order's.
 */
export async function openOrderLink(db: Db, links: OrderLinks, token: string, reference?: string): Promise<OrderRow> {
  const opened = links.open(token);
  if (!opened.ok) throw new DomainError(opened.code, 'token');
  if (reference !== undefined && normalizeCode(reference) !== opened.reference)
    throw new DomainError('link_invalid', 'token');
  const row = await ordersRepository.findByReference(db, opened.reference);
  if (!row?.email) throw new DomainError('not_found', undefined, 'No order matches this link.');
  return row;
}

/** Email + full reference -> the order; anything else is one uniform "not found". */
export async function lookupOrder(db: Db, email: string, reference: string): Promise<OrderRow> {
  const normalized = normalizeCode(reference);
  const row = normalized ? await ordersRepository.findByEmailAndReference(db, emailKey(email), normalized) : undefined;
  if (!row) throw new DomainError('not_found', undefined, 'No order matches this email address and reference.');
  return row;
}
