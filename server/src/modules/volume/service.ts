import { knownDecimals } from '#domain/currencies';
import { emailLinkKey } from '#domain/customer-key';
import { MOBILE_VERIFICATION_WEEKLY_EUR_MINOR, WEEKLY_VOLUME_DAYS } from '#domain/limits';
import { eurValueMinor } from '#domain/quotes';
import { findAccountById } from '../accounts/service';
import { volumeRepository, type CustomerKeys } from './repository';
import type { Db, Tx } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

export type { CustomerKeys };

/**
 * What a customer moved (docs/decisions/0008), the facts the gates (modules/gates) judge by:
 * - the week: their exchanges converted in a rolling 7 days (by account, email key, payout owner
 *   and payer IBAN, so that a new spelling of an email or a new tag does not start a new week) and
 *   their wallet sends, internal and external, at the value they had when confirmed;
 * - the day: what left their wallet in the last 24 hours (the second factor's threshold);
 * - whether they are still new (no exchange of theirs completed: the first-order cap).
 * Only what moved counts against an account: an order nobody paid, placed in someone's name,
 * counts only against the anonymous placement of that email or destination.
 */
const DAY_MS = 86_400_000;

/** EUR cents of the account's sends confirmed since then that moved value (domain/wallet.ts), at their value when confirmed. */
async function sentEurMinor(db: Db, rates: RatesAdapter, accountId: string, since: Date): Promise<bigint> {
  const sends = await volumeRepository.confirmedSends(db, accountId, since);
  // Sends confirmed before their value was kept are valued at today's rate.
  const current = sends.some((s) => s.eurValue === null) ? (await rates.current()).rates : {};
  return sends.reduce(
    (sum, s) => sum + (s.eurValue ?? eurValueMinor(s.amount, knownDecimals(s.currency), current[s.currency] ?? '0')),
    0n,
  );
}

/**
 * The customer's week in EUR cents. `includeOpen`: orders placed and not converted yet count too —
 * only for placing an anonymous order, which nothing else stands behind. `except`: the order being
 * judged, which its caller counts itself.
 */
export async function weeklyVolumeEurMinor(
  db: Db,
  rates: RatesAdapter,
  customer: CustomerKeys,
  options: { includeOpen?: boolean; except?: string } = {},
  now = new Date(),
): Promise<bigint> {
  const since = new Date(now.getTime() - WEEKLY_VOLUME_DAYS * DAY_MS);
  const ordered = await volumeRepository.ordersEurMinor(
    db,
    customer,
    since,
    options.includeOpen ?? false,
    options.except,
  );
  if (!customer.accountId) return ordered;
  return ordered + (await sentEurMinor(db, rates, customer.accountId, since));
}

/** EUR cents that left the account's wallet in the last 24 hours: sends, and orders paid from it to a destination outside. */
export async function dayOutflowEurMinor(
  db: Db,
  rates: RatesAdapter,
  accountId: string,
  now = new Date(),
): Promise<bigint> {
  const since = new Date(now.getTime() - DAY_MS);
  return (
    (await sentEurMinor(db, rates, accountId, since)) +
    (await volumeRepository.walletPaidOrdersEurMinor(db, accountId, since))
  );
}

/**
 * A logged-in customer as the limits know them: the account, and the link key of the account's
 * own email (orders placed with it without logging in are theirs too) — never an email typed
 * into a form, which anyone can type.
 */
export async function accountCustomer(db: Db, accountId: string): Promise<CustomerKeys> {
  const account = await findAccountById(db, accountId);
  return { accountId, emailKey: account?.email ? emailLinkKey(account.email) : null };
}

/** Whether one of the customer's exchanges, other than `except`, completed successfully (a deposit kept in euros is none). */
export const hasCompletedExchange = (db: Db, customer: CustomerKeys, except?: string) =>
  volumeRepository.hasCompletedExchange(db, customer, except);

const keysOf = (customer: CustomerKeys) =>
  [
    customer.accountId && `volume:account:${customer.accountId}`,
    customer.emailKey && `volume:email:${customer.emailKey}`,
    customer.payoutKey && `volume:address:${customer.payoutKey}`,
    customer.payerKey && `volume:address:${customer.payerKey}`,
  ].filter((key): key is string => Boolean(key));

/**
 * Within a transaction: waits until no other check of this customer's volume is running, and
 * keeps them out until it commits, so that operations created first and confirmed later, or at
 * the same instant, are counted one after another.
 */
export const lockCustomer = (tx: Tx, customer: CustomerKeys) => volumeRepository.lock(tx, keysOf(customer));

/**
 * The anonymous weekly cap as the database applies it when placing an anonymous order in one
 * statement (orders' placeAnonymous): the same lock keys, window and threshold as above.
 */
export function anonymousWeeklyCap(customer: CustomerKeys, now = new Date()) {
  return {
    lockKeys: keysOf(customer),
    since: new Date(now.getTime() - WEEKLY_VOLUME_DAYS * DAY_MS),
    weeklyCap: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  };
}
