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
