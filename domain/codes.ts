/**
 * Codes in the form ABCD-EFGH-IJKL-MNOP: 16 letters A–Z (~75 bits), used for order references
 * and verification codes. People type them back in any case, with or without dashes.
 */
export const CODE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const CODE_LENGTH = 16;

/** A code from random bytes (a CSPRNG in the API); rejection sampling keeps letters uniform. */
export function codeFromBytes(bytes: Uint8Array): string | null {
  const limit = 256 - (256 % CODE_LETTERS.length);
  let letters = '';
  for (const byte of bytes) {
    if (byte >= limit) continue;
    letters += CODE_LETTERS[byte % CODE_LETTERS.length];
    if (letters.length === CODE_LENGTH) return formatCode(letters);
  }
  return null;
}

/** "abcdefghijklmnop" -> "ABCD-EFGH-IJKL-MNOP". */
export function formatCode(letters: string): string {
  return letters.toUpperCase().match(/.{1,4}/g)!.join('-');
}

/** What a person typed -> the canonical code, or null when it cannot be one. */
export function normalizeCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z]{16}$/.test(letters) ? formatCode(letters) : null;
}
