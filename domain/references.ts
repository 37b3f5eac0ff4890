/**
 * Account keys and deposit references. Callers pass random bytes (a CSPRNG in the API), so
 * this stays pure and shared by the site and the API.
 */
import { symbolsFromBytes } from './random-symbols';

/** Letters and digits that cannot be confused when read aloud or typed: no 0/O, 1/I/L. */
export const ACCOUNT_KEY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ACCOUNT_KEY_LENGTH = 8;

/** An account key from random bytes; null when too few were usable (ask for more). */
export function accountKeyFromBytes(bytes: Uint8Array): string | null {
  return symbolsFromBytes(bytes, ACCOUNT_KEY_ALPHABET, ACCOUNT_KEY_LENGTH);
}

export const DEPOSIT_PREFIX = 'DEPOSIT';

/** The account key the site shows in examples: as long as a real one, from the same letters. */
export const EXAMPLE_ACCOUNT_KEY = '7KQ2M9XA';

/** The payment reason for a deposit: DEPOSIT + account key (+ optional currency code). */
export function depositReference(accountKey: string, currency?: string): string {
  return `${DEPOSIT_PREFIX}${accountKey}${currency ? ` ${currency}` : ''}`;
}

/** Reads a deposit reference as banks deliver it: any case, spaces anywhere. */
export function parseDepositReference(text: string): { accountKey: string; currency?: string } | null {
  const compact = text.toUpperCase().replace(/\s+/g, '');
  if (!compact.startsWith(DEPOSIT_PREFIX)) return null;
  const rest = compact.slice(DEPOSIT_PREFIX.length);
  const accountKey = rest.slice(0, ACCOUNT_KEY_LENGTH);
  if (accountKey.length !== ACCOUNT_KEY_LENGTH || [...accountKey].some((c) => !ACCOUNT_KEY_ALPHABET.includes(c))) {
    return null;
  }
  const currency = rest.slice(ACCOUNT_KEY_LENGTH);
  if (currency && !/^[A-Z]{2,6}$/.test(currency)) return null;
  return currency ? { accountKey, currency } : { accountKey };
}
