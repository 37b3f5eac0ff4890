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

/**
 * An amount with its currency: `minor` units of `currency` (docs/decisions/0022). What a quote
 * answers, so that no caller pairs an amount with another currency's decimals; it becomes a
 * decimal string once, at the edge (`moneyDecimal` in currencies.ts, `formatMinor` in format.ts).
 */
export type Money = { readonly minor: bigint; readonly currency: string };

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

/**
 * An amount as a person types it -> the decimal string the API takes. Spaces, no-break spaces and
 * apostrophes (digit groups: "1 234", "1'234") go; one comma alone is a decimal comma ("0,001",
 * as German, French, Dutch, Russian and Ukrainian write it); with both marks, the last one is the
 * decimal mark and the other groups digits ("1.234,56", "1,234.56"); ".5" reads as "0.5". Anything
 * else is returned as it is, for the amount's own check to refuse. Every amount field uses it.
 */
export function normalizeAmountInput(input: string): string {
  let compact = input.replace(/[\s\u00a0\u202f']/g, '');
  const comma = compact.lastIndexOf(',');
  const dot = compact.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) {
    const [group, decimal] = comma > dot ? ['.', ','] : [',', '.'];
    const [whole, fraction, ...more] = compact.split(decimal);
    const groups = whole!.split(group);
    // Groups of three digits after the first ("12.345.678,9"); anything else is no amount.
    if (more.length === 0 && /^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((g) => /^\d{3}$/.test(g)))
      compact = `${groups.join('')}.${fraction}`;
  } else if (comma >= 0 && compact.indexOf(',') === comma) {
    compact = compact.replace(',', '.');
  }
  return compact.startsWith('.') ? `0${compact}` : compact;
}
