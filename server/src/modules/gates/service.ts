import { currencyByCode } from '#domain/currencies';
import { DomainError, secondsToWait } from '#domain/errors';
import {
  exchangeRefusal,
  outflowRefusal,
  type ExchangePath,
  type OutflowPath,
  type Refusal,
  type WalletOutflowFacts,
} from '#domain/gates';
import { hasSecondFactor } from '#domain/protection';
import { verificationPhases, verifiedBankIban } from '../identity/service';
import { balancesOf } from '../ledger/service';
import { bookRefusal, isFrozen, protectionOf, type ProtectionSettings } from '../protection/service';
import {
  accountCustomer,
  anonymousWeeklyCap,
  dayOutflowEurMinor,
  hasCompletedExchange,
  lockCustomer,
  weeklyVolumeEurMinor,
  type CustomerKeys,
} from '../volume/service';
import type { Db, Tx } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

/**
 * The two gates (issue 29): every path where value is exchanged or leaves passes one of them, in
 * the transaction that moves the value. The rules are domain/gates.ts's; this module gathers the
 * facts they judge (under the customer's locks) and hands out a pass.
 *
 * A pass is a type nothing else can make: `requestPayout` (every payout) and the order
 * repository's writes (every conversion) take one, so a new path cannot skip its gate without a
 * cast, and server/test/gate-paths.test.ts lists every caller of those functions.
 */
declare const exchangeBrand: unique symbol;
declare const outflowBrand: unique symbol;
export type ExchangePass = { readonly [exchangeBrand]: true; readonly path: ExchangePath };
export type OutflowPass = { readonly [outflowBrand]: true; readonly path: OutflowPath };
const exchangePass = (path: ExchangePath) => ({ path }) as ExchangePass;
const outflowPass = (path: OutflowPath) => ({ path }) as OutflowPass;

function refuse(refusal: Refusal | null): void {
  if (refusal) throw new DomainError(refusal.code, refusal.field, undefined, refusal.retryAfter);
}

// ---------------------------------------------------------------------------------------------
// The exchange gate.

export type ExchangeDeps = { rates: RatesAdapter; buySellEnabled: boolean };

/** A conversion as the gate sees it. */
export type Conversion = {
  path: ExchangePath;
  type: 'buy' | 'sell' | 'swap';
  currencyFrom: string;
  currencyTo: string;
  /** Paid from the customer's wallet, delivered into it. */
  fromWallet: boolean;
  toWallet: boolean;
  fromBusinessAccount?: boolean;
  /** The account behind it (null: an anonymous order): for a logged-in customer, the account decides. */
  accountId: string | null;
  /** The link keys the order carries: the email typed (counted only for an anonymous customer), the payout owner, the payer. */
  keys: Omit<CustomerKeys, 'accountId'>;
  /** An operator released this anonymous order, held past the weekly cap (orders' reviewHeldOrder). */
  releasedByOperator?: boolean;
};

const cryptoSide = (code: string) => (code === 'EUR' ? null : (currencyByCode(code) ?? null));

/** Who the limits count: a logged-in customer by account (and its own email), an anonymous one by what the order names. */
async function customerOf(db: Db, conversion: Conversion): Promise<CustomerKeys> {
  const { payoutKey, payerKey } = conversion.keys;
  if (conversion.accountId) return { ...(await accountCustomer(db, conversion.accountId)), payoutKey, payerKey };
  return conversion.keys;
}

async function exchangeFacts(db: Db, deps: ExchangeDeps, conversion: Conversion) {
  return {
    path: conversion.path,
    type: conversion.type,
    buySellEnabled: deps.buySellEnabled,
    from: cryptoSide(conversion.currencyFrom),
    to: cryptoSide(conversion.currencyTo),
    fromWallet: conversion.fromWallet,
    toWallet: conversion.toWallet,
    fromBusinessAccount: conversion.fromBusinessAccount,
    phases: conversion.accountId ? await verificationPhases(db, conversion.accountId) : null,
    releasedByOperator: conversion.releasedByOperator,
  };
}

/** Before any amount is known (a form's first answer): the rules about who and what, nothing counted. */
export async function exchangeEligibility(db: Db, deps: ExchangeDeps, conversion: Conversion): Promise<void> {
  refuse(exchangeRefusal(await exchangeFacts(db, deps, conversion)));
}

/**
 * Within the transaction that writes or converts it: locks the customer (their other checks wait
 * until this one commits), then judges every rule of an exchange with this one counted — the
 * order caps, the first-order cap, the week. `except`: the order being converted (it is not yet
 * among the customer's completed exchanges nor their week).
 */
export async function exchangeGate(
  tx: Tx,
  deps: ExchangeDeps,
  conversion: Conversion & { amountEurMinor: bigint; except?: string; stage: 'placement' | 'conversion' },
): Promise<ExchangePass> {
  const customer = await customerOf(tx, conversion);
  await lockCustomer(tx, customer);
  refuse(
    exchangeRefusal({
      ...(await exchangeFacts(tx, deps, conversion)),
      amountEurMinor: conversion.amountEurMinor,
      newCustomer: !(await hasCompletedExchange(tx, customer, conversion.except)),
      // Placing an anonymous order, the orders placed and not yet converted count too: nothing else
      // stands behind it. Everyone else's week is what moved (each conversion is judged in turn).
      weeklyEurMinor:
        (await weeklyVolumeEurMinor(tx, deps.rates, customer, {
          includeOpen: conversion.stage === 'placement' && !conversion.accountId,
          except: conversion.except,
        })) + conversion.amountEurMinor,
    }),
  );
  return exchangePass(conversion.path);
}

/**
 * An anonymous order, placed in one statement (the placement benchmark's path, most orders): the
 * gate judges what it can here, and hands the database the first-order and weekly caps to apply
 * under the same locks in that statement (place_anonymous_order, migration 0030). Orders placed
 * and not yet converted count against an anonymous placement: nothing else stands behind it.
 */
export async function anonymousExchangeGate(
  db: Db,
  deps: ExchangeDeps,
  conversion: Conversion & { amountEurMinor: bigint },
) {
  refuse(
    exchangeRefusal({
      ...(await exchangeFacts(db, deps, { ...conversion, accountId: null })),
      amountEurMinor: conversion.amountEurMinor,
    }),
  );
  return { pass: exchangePass('anonymous_order'), inDatabase: anonymousWeeklyCap(conversion.keys) };
}

// ---------------------------------------------------------------------------------------------
// The outflow gate.

export type OutflowDeps = { rates: RatesAdapter; protection: ProtectionSettings };

/** The login behind a request that moves value: the token's auth_time (seconds since the epoch) and amr. */
export type Login = { authTime?: number; amr?: string[] };

/** Value leaving a customer's wallet. */
export type WalletOutflow = {
  path: 'wallet_send' | 'own_wallet_order';
  accountId: string;
  /** The currency that leaves the wallet. */
  currency: string;
  /** Where it goes, in the currency it arrives in (an order converts it), canonical; internal: another Muntly wallet. */
  destination: { currency: string; address: string };
  internal: boolean;
  /** What leaves the wallet (with the network fee), in its minor units, and its EUR value. */
  debitMinor: bigint;
  eurValueMinor: bigint;
  /** Given when the value moves now (the code accepted): the login is judged then. */
  login?: Login;
};

/**
 * Value leaving a wallet, judged by account protection and the verifications (domain/gates.ts
 * outflowRefusal). Without a login (a send or order being started) it answers early and takes no
 * lock; with one it runs in the transaction that moves the value: the protection row is read
 * under a share lock (a freeze waits for this transaction, or this one sees it) and the customer
 * is locked, so outflows confirmed at the same instant are counted one after another.
 */
export async function walletOutflowGate(tx: Tx, deps: OutflowDeps, outflow: WalletOutflow): Promise<OutflowPass> {
  const moving = outflow.login !== undefined;
  const guard = await protectionOf(tx, outflow.accountId, moving ? 'share' : undefined);
  const customer = await accountCustomer(tx, outflow.accountId);
  if (moving) await lockCustomer(tx, customer);
  const now = new Date();
  const settings = deps.protection;
  const book = await bookAnswer(tx, guard, outflow, now);
  const balance = (await balancesOf(tx, outflow.accountId)).find((b) => b.currency === outflow.currency)?.balance ?? 0n;
  const { login } = outflow;
  refuse(
    outflowRefusal({
      frozen: isFrozen(guard, now),
      pausedForSeconds:
        guard.sendsPausedUntil && guard.sendsPausedUntil > now
          ? secondsToWait(guard.sendsPausedUntil.getTime() - now.getTime())
          : 0,
      book,
      phases: await verificationPhases(tx, outflow.accountId),
      balanceCovers: outflow.debitMinor <= balance,
      weeklyEurMinor: (await weeklyVolumeEurMinor(tx, deps.rates, customer)) + outflow.eurValueMinor,
      login: login && {
        ageSeconds: login.authTime === undefined ? null : Math.floor(now.getTime() / 1000) - login.authTime,
        maxAgeSeconds: settings.maxAuthAgeSeconds,
        secondFactor: hasSecondFactor(login.amr),
        dayEurMinor: (await dayOutflowEurMinor(tx, deps.rates, outflow.accountId, now)) + outflow.eurValueMinor,
        secondFactorAboveEurMinor: settings.secondFactorAboveEurMinor,
      },
    }),
  );
  return outflowPass(outflow.path);
}

/**
 * What the address book says of the destination. An IBAN (a sell paid out in euros) is not kept
 * in the book: in allow-list mode the one IBAN allowed is the account's verified bank account,
 * whose holder proved it with a transfer.
 */
async function bookAnswer(
  tx: Tx,
  guard: Awaited<ReturnType<typeof protectionOf>>,
  outflow: WalletOutflow,
  now: Date,
): Promise<WalletOutflowFacts['book']> {
  if (outflow.destination.currency === 'EUR') {
    return !guard.allowListOnly || (await verifiedBankIban(tx, outflow.accountId)) === outflow.destination.address
      ? 'allowed'
      : 'not_in_book';
  }
  const refusal = await bookRefusal(tx, guard, { ...outflow.destination, internal: outflow.internal }, now);
  return !refusal
    ? 'allowed'
    : refusal.code === 'address_on_hold'
      ? { onHoldForSeconds: refusal.retryAfter ?? 1 }
      : 'not_in_book';
}

/**
 * An order's own money leaving Muntly — its delivery to the customer's address or IBAN, or its
 * refund — or a bank payment or chain output nobody claimed going back to whoever sent it. No
 * wallet is debited, so no account rule applies; the conversion before it passed the exchange
 * gate, and the payout's approval (four eyes) is judged when it is requested.
 */
export function orderOutflowGate(
  path: 'order_delivery' | 'order_refund' | 'payment_refund' | 'chain_return',
): OutflowPass {
  return outflowPass(path);
}
