/**
 * Uniform random symbols from random bytes: bytes that would favour the first symbols of the
 * alphabet (256 is not a multiple of its length) are skipped. Null when too few bytes were usable.
 */
export function symbolsFromBytes(bytes: Uint8Array, alphabet: string, length: number): string | null {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  for (const byte of bytes) {
    if (byte >= limit) continue;
    out += alphabet[byte % alphabet.length];
    if (out.length === length) return out;
  }
  return null;
}
