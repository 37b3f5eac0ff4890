/**
 * Money is an integer number of minor units (bigint) everywhere; on the wire and in texts it is
 * a decimal string. Never a JavaScript float.
 */

/** 12345n at 2 decimals -> "123.45"; -5n at 2 -> "-0.05". */
export function minorToDecimal(minor: bigint, decimals: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** EUR amounts in cents. */
export const EUR_DECIMALS = 2;
export const eur = (minor: bigint): string => minorToDecimal(minor, EUR_DECIMALS);

/** "1.5" at 8 decimals -> 150000000n; null for anything that is not a plain positive-or-zero
 * decimal with at most `decimals` digits after the point (no exponent, no sign, no spaces). */
export function decimalToMinor(value: string, decimals: number): bigint | null {
  const match = /^(\d{1,30})(?:\.(\d+))?$/.exec(value);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}

/**
 * decimalToMinor for a value Muntly wrote itself (a quote, a rendered amount): one that does not
 * convert exactly is a bug, and it throws rather than become zero or be rounded.
 */
export function exactMinor(value: string, decimals: number): bigint {
  const minor = decimalToMinor(value, decimals);
  if (minor === null) throw new Error(`${JSON.stringify(value)} is not an amount with at most ${decimals} decimals`);
  return minor;
}
