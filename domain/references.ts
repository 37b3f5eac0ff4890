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

// ---------------------------------------------------------------------------------------------
// Order references as payers write them

/**
 * The check letter of an order's short reference (ISO/IEC 7064, hybrid system MOD 27,26): the
 * 8th letter of a new order's reference is computed from its first seven, so a payment reason
 * can be searched for a reference anywhere in what the payer wrote. A hybrid system catches
 * every single wrong letter and all but about 1 in 300 swaps of two neighbours (measured in
 * domain/__tests__/references.test.ts), and only 1 in 26 random letter
 * sequences passes, so a word that happens to look like a reference is almost never one (and is
 * then still checked against the open orders). References made before it had no check letter:
 * they are still matched when the reason is the reference alone.
 */
export function referenceCheckLetter(sevenLetters: string): string {
  const M = 26;
  let product = M;
  for (const letter of sevenLetters.toUpperCase()) {
    const value = letter.charCodeAt(0) - 65;
    if (value < 0 || value >= M) throw new RangeError('a reference is made of the letters A to Z');
    const sum = (product + value) % M || M;
    product = (2 * sum) % (M + 1);
  }
  return String.fromCharCode(65 + ((M + 1 - product) % M));
}

/** Whether eight letters end with their check letter (referenceCheckLetter). */
export const hasCheckLetter = (eightLetters: string): boolean =>
  /^[A-Z]{8}$/.test(eightLetters) && referenceCheckLetter(eightLetters.slice(0, 7)) === eightLetters[7];

/** A new order reference's 16 letters with the 8th made the check letter of the first seven (the short reference is the first eight). */
export const withCheckLetter = (letters: string): string =>
  `${letters.slice(0, 7)}${referenceCheckLetter(letters.slice(0, 7))}${letters.slice(8)}`;

/** The bank's payment reason for an order when it is the short reference alone: any case, spaces or dashes optional. */
export function parseShortReference(reason: string): string | null {
  const letters = reason.toUpperCase().replace(/[\s-]+/g, '');
  return /^[A-Z]{8}$/.test(letters) ? `${letters.slice(0, 4)}-${letters.slice(4)}` : null;
}

/** How much of a payment's remittance information is searched for references. */
export const MAX_REMITTANCE_SCANNED = 1000;

/** What a payment's remittance information may name: order short references (ABCD-EFGH) and deposit references. */
export type FoundReferences = { orders: string[]; deposits: { accountKey: string; currency?: string }[] };

const KEY_SYMBOL = `[${ACCOUNT_KEY_ALPHABET}]`;
/** DEPOSIT and the key, with spaces anywhere (a wrapped line), then perhaps a currency code as the next word. */
const DEPOSIT_ANYWHERE = new RegExp(
  `D\\s*E\\s*P\\s*O\\s*S\\s*I\\s*T\\s*((?:${KEY_SYMBOL}\\s*){${ACCOUNT_KEY_LENGTH}})(?:[\\s,.;:/-]*([A-Z]{2,6})\\b)?`,
  'g',
);

/**
 * Every reference that a payment's remittance information may name, wherever the payer wrote it:
 * words around it ("Betaling order DWAC-TPUQ dank u"), a line the bank wrapped in the middle of
 * it, any case, spaces, dashes or dots inside. Order references are found by their check letter
 * in every run of eight letters; a line of the text that is a short reference alone is one too
 * (references older than the check letter). `isCurrency` says which words after a deposit reference are
 * currency codes. What the references name is for the caller to look up: a payment is matched
 * only when exactly one open order or account is named.
 */
export function findReferences(text: string, isCurrency: (code: string) => boolean): FoundReferences {
  const upper = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  const orders = new Set<string>();
  // A reference from before the check letter counts when it is a whole piece of what was written
  // (the reason, the structured reference, a bank's additional field: one line each).
  for (const piece of upper.split('\n')) {
    const whole = parseShortReference(piece.trim());
    if (whole) orders.add(whole);
  }
  // Letters only: a reference split by a wrapped line, a dash, a dot or a space is whole again.
  const letters = upper.replace(/[^A-Z]+/g, '');
  for (let i = 0; i + 8 <= letters.length; i++) {
    const window = letters.slice(i, i + 8);
    if (hasCheckLetter(window)) orders.add(`${window.slice(0, 4)}-${window.slice(4)}`);
  }
  const deposits = new Map<string, { accountKey: string; currency?: string }>();
  for (const match of upper.matchAll(DEPOSIT_ANYWHERE)) {
    const accountKey = match[1]!.replace(/\s+/g, '');
    const currency = match[2] && isCurrency(match[2]) ? match[2] : undefined;
    const known = deposits.get(accountKey);
    if (!known || (!known.currency && currency))
      deposits.set(accountKey, currency ? { accountKey, currency } : { accountKey });
  }
  return { orders: [...orders], deposits: [...deposits.values()] };
}
