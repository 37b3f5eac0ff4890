import { currencyByCode } from '../../../../domain/currencies';
import { emailKey } from '../../../../domain/email';
import { DomainError } from '../../../../domain/errors';
import { MOBILE_VERIFICATION_WEEKLY_EUR_MINOR, WEEKLY_VOLUME_DAYS } from '../../../../domain/limits';
import { eurValueMinor } from '../../../../domain/quotes';
import { findAccountById } from '../accounts/service';
import { requireVerifications } from '../identity/service';
import { volumeRepository, type CustomerKeys } from './repository';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

export type { CustomerKeys };

/**
 * Weekly volume (spec section 6): everything a customer moved out in a rolling 7 days, in EUR —
 * their exchange orders (by account, by email, and by payout address or IBAN, so that a new email
 * does not start a new week) and their wallet sends, internal and external, at the value they had
 * when confirmed. Above 1,000 EUR it needs a verified mobile number, above 3,000 EUR an ID; an
 * anonymous customer cannot pass 1,000 EUR at all.
 *
 * The rule is checked where the value leaves — confirming a send, placing an order — inside the
 * transaction that moves it, under a lock per customer key: operations created first and confirmed
 * later, or confirmed at the same instant, are counted one after another and cannot together pass
 * a threshold that each passes alone.
 */
export async function weeklyVolumeEurMinor(db: Db, rates: RatesAdapter, customer: CustomerKeys, now = new Date()): Promise<bigint> {
  const since = new Date(now.getTime() - WEEKLY_VOLUME_DAYS * 86_400_000);
  const ordered = await volumeRepository.ordersEurMinor(db, customer, since);
  if (!customer.accountId) return ordered;
  const sends = await volumeRepository.confirmedSends(db, customer.accountId, since);
  // Sends confirmed before their value was kept are valued at today's rate.
  const current = sends.some((s) => s.eurValue === null) ? (await rates.current()).rates : {};
  const sent = sends.reduce((sum, s) => sum + (s.eurValue ?? eurValueMinor(s.amount, currencyByCode(s.currency)!.decimals, current[s.currency] ?? '0')), 0n);
  return ordered + sent;
}

/**
 * A logged-in customer as the weekly volume knows them: their account, and their email address,
 * under which they may also have ordered without logging in (those orders count too).
 */
export async function accountCustomer(db: Db, accountId: string): Promise<CustomerKeys> {
  const account = await findAccountById(db, accountId);
  return { accountId, email: account?.email ? emailKey(account.email) : null };
}

const keysOf = (customer: CustomerKeys) =>
  [customer.accountId && `volume:account:${customer.accountId}`, customer.email && `volume:email:${customer.email}`, customer.address && `volume:address:${customer.address}`].filter(
    (key): key is string => Boolean(key),
  );

/**
 * The anonymous weekly cap as the database applies it when placing an anonymous order in one
 * statement (orders' placeAnonymous): the same lock keys, window and threshold as below.
 */
export function anonymousWeeklyCap(customer: CustomerKeys, now = new Date()) {
  return { lockKeys: keysOf(customer), since: new Date(now.getTime() - WEEKLY_VOLUME_DAYS * 86_400_000), weeklyCap: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR };
}

/** Within a transaction: waits until no other check of this customer's volume is running, and keeps them out until it commits. */
export const lockWeeklyVolume = (tx: Db, customer: CustomerKeys) => volumeRepository.lock(tx, keysOf(customer));

/**
 * Within a transaction: locks the customer's volume (again, if the caller already did), then refuses the operation if the week's
 * volume with it would need a verification the customer does not have. Call it after the checks
 * that say more (an insufficient balance is reported as such, not as a missing verification).
 */
export async function requireWithinWeeklyVolume(tx: Db, rates: RatesAdapter, customer: CustomerKeys, addedEurMinor: bigint, options: { usesWallet?: boolean } = {}): Promise<void> {
  await lockWeeklyVolume(tx, customer);
  const weekly = (await weeklyVolumeEurMinor(tx, rates, customer)) + addedEurMinor;
  if (!customer.accountId) {
    if (weekly > MOBILE_VERIFICATION_WEEKLY_EUR_MINOR) throw new DomainError('weekly_limit_login_required', 'amount');
    return;
  }
  await requireVerifications(tx, customer.accountId, { usesWallet: options.usesWallet, weeklyEurMinor: weekly });
}
