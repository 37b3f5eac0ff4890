/**
 * The EUR value of an amount in minor units, in cents, rounded half up (away from zero) as a
 * quote rounds its amountEur and its fee (one rounding rule, stated on the fees page): what a
 * send, a deposit, a balance and a transaction row are worth, and what the weekly volume adds up.
 * `rate` is the decimal string of EUR per unit ("80000", "0.5", "1e-8").
 *
 * Exact integer arithmetic on the rate's digits, in a module of its own: the wallet's send page
 * shows it as the amount is typed, and a decimal library (big.js, which domain/quotes.ts uses for
 * its quotes) would be in that page's first load for this one product.
 */
export function eurValueMinor(amountMinor: bigint, decimals: number, rate: string): bigint {
  // The decimal forms big.js reads: "80000", "0.5", ".5", "5.", "-1", "1e-8".
  const match = /^(-?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:e([+-]?\d+))?$/i.exec(rate.trim());
  if (!match) throw new Error(`${JSON.stringify(rate)} is not a rate`);
  const whole = match[2] ?? '';
  const fraction = match[3] ?? match[4] ?? '';
  const product = amountMinor * BigInt(`${match[1]}${whole}${fraction}`);
  // amount × rate in cents = product × 10^power.
  const power = 2 - decimals - fraction.length + Number(match[5] ?? 0);
  if (power >= 0) return product * 10n ** BigInt(power);
  const divisor = 10n ** BigInt(-power);
  const magnitude = product < 0n ? -product : product;
  const rounded = (2n * magnitude + divisor) / (2n * divisor);
  return product < 0n ? -rounded : rounded;
}
