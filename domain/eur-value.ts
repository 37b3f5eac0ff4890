/**
 * The EUR value of an amount in minor units, in cents, rounded half up (away from zero) as a
 * quote rounds its amountEur and its fee (one rounding rule, stated on the fees page): what a
 * send, a deposit, a balance and a transaction row are worth, and what the weekly volume adds up.
 * `rate` is the decimal string of EUR per unit ("80000", "0.5", "1e-8").
 *
 * Exact integer arithmetic on the rate's digits, in a module of its own: the wallet's send page
 * shows it as the amount is typed, and a decimal library (big.js) would be in that page's first
 * load for this one product. The quote values its amounts with it too (domain/quotes.ts).
 */
export function eurValueMinor(amountMinor: bigint, decimals: number, rate: string): bigint {
  const parsed = decimalDigits(rate);
  if (!parsed) throw new Error(`${JSON.stringify(rate)} is not a rate`);
  const product = amountMinor * parsed.digits;
  // amount × rate in cents = product × 10^power.
  const power = 2 - decimals - parsed.scale;
  if (power >= 0) return product * 10n ** BigInt(power);
  const divisor = 10n ** BigInt(-power);
  const magnitude = product < 0n ? -product : product;
  const rounded = (2n * magnitude + divisor) / (2n * divisor);
  return product < 0n ? -rounded : rounded;
}

/**
 * A decimal string as integer digits and a scale, value = digits × 10^-scale, in the forms
 * big.js reads ("80000", "0.5", ".5", "5.", "-1", "1e-8"); null for anything else. The one
 * reader of decimal strings for exact bigint arithmetic (this EUR value, a quote's rates, a buy
 * rate's inverse).
 */
export function decimalDigits(text: string): { digits: bigint; scale: number } | null {
  const match = /^(-?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!match) return null;
  const fraction = match[3] ?? match[4] ?? '';
  return { digits: BigInt(`${match[1]}${match[2] ?? ''}${fraction}`), scale: fraction.length - Number(match[5] ?? 0) };
}
