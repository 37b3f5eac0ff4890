/**
 * Codes in the form ABCD-EFGH-IJKL-MNOP: 16 letters A–Z (~75 bits), used for order references
 * and verification codes. People type them back in any case, with or without dashes.
 */
import { symbolsFromBytes } from './random-symbols';

export const CODE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const CODE_LENGTH = 16;

/** A code from random bytes (a CSPRNG in the API); null when too few were usable. */
export function codeFromBytes(bytes: Uint8Array): string | null {
  const letters = symbolsFromBytes(bytes, CODE_LETTERS, CODE_LENGTH);
  return letters && formatCode(letters);
}

/** "abcdefghijklmnop" -> "ABCD-EFGH-IJKL-MNOP". */
export function formatCode(letters: string): string {
  return letters
    .toUpperCase()
    .match(/.{1,4}/g)!
    .join('-');
}

/** What a person typed -> the canonical code, or null when it cannot be one. */
export function normalizeCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z]{16}$/.test(letters) ? formatCode(letters) : null;
}
