/**
 * Account keys and deposit references. Callers pass random bytes (a CSPRNG in the API), so
 * this stays pure and shared by the site and the API.
 */

/** Letters and digits that cannot be confused when read aloud or typed: no 0/O, 1/I/L. */
export const ACCOUNT_KEY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ACCOUNT_KEY_LENGTH = 8;

/** An account key from 8 random bytes (rejection sampling keeps every symbol equally likely). */
export function accountKeyFromBytes(bytes: Uint8Array): string | null {
  const limit = 256 - (256 % ACCOUNT_KEY_ALPHABET.length);
  let key = '';
  for (const byte of bytes) {
    if (byte >= limit) continue;
    key += ACCOUNT_KEY_ALPHABET[byte % ACCOUNT_KEY_ALPHABET.length];
    if (key.length === ACCOUNT_KEY_LENGTH) return key;
  }
  return null; // not enough usable bytes; ask for more
}

export const DEPOSIT_PREFIX = 'DEPOSIT';

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
