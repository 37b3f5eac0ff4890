import { decimalDigits } from '#domain/eur-value';
import { minorToDecimal } from '#domain/money';
import {
  formatDateTime as formatMoment,
  formatEurPrice,
  formatMoney,
  numberFormat,
  plainEurAmount,
} from '../../i18n/format';
import type { Language } from '#domain/languages';

/**
 * Display formatting of the decimal strings the API sends (never arithmetic): amounts through
 * src/i18n/format, rates with up to 10 significant digits (a price in euros as an amount), dates with the time of day.
 */
export { formatMoney, plainEurAmount };

export function formatRate(rate: string, language: Language): string {
  // Intl reads decimal strings (also "2.6e-10") exactly; the cast satisfies older typings.
  return numberFormat(language, { maximumSignificantDigits: 10 }).format(rate as unknown as number);
}

export function formatDateTime(iso: string, language: Language): string {
  return formatMoment(new Date(iso), language);
}

/** XRP addresses are stored as address:tag; the tag is shown on its own. */
export function splitXrp(address: string): { address: string; tag: string | null } {
  const match = /^(r[1-9A-HJ-NP-Za-km-z]{24,34}):(\d{1,10})$/.exec(address);
  return match ? { address: match[1]!, tag: match[2]! } : { address, tag: null };
}

/**
 * The API's rate is units of `to` per unit of `from`. People read a buy's rate the other way
 * round ("1 BTC ≈ 80,000 EUR", not "1 EUR ≈ 0.0000125 BTC"), so EUR-first rates are inverted
 * with decimal arithmetic for display.
 */
export function rateText(from: string, to: string, rate: string, language: Language): string {
  // A price in euros is written as every euro amount is ("1 BTC ≈ €81,233.21"), never "81,233.206 EUR".
  const inverted = from === 'EUR' ? inverse(rate, 8) : null;
  if (inverted !== null) return `1 ${to} ≈ ${formatEurPrice(inverted, language)}`;
  if (to === 'EUR') return `1 ${from} ≈ ${formatEurPrice(rate, language)}`;
  return `1 ${from} ≈ ${formatRate(rate, language)} ${to}`;
}

/**
 * 1 / `decimal` to `decimals` places, half up, as a decimal string ("0.0000125" → "80000.00");
 * null for zero or what is not a decimal. Bigint arithmetic on the digits (display only): a
 * decimal library (big.js, ~3 KB gzipped) in every exchange page's first load for one division
 * is more than the page needs.
 */
export function inverse(decimal: string, decimals: number): string | null {
  const parsed = decimalDigits(decimal);
  if (!parsed || parsed.digits <= 0n) return null;
  // decimal = digits × 10^-scale, so 1 / decimal × 10^decimals = 10^(scale + decimals) / digits.
  const power = parsed.scale + decimals;
  const numerator = 10n ** BigInt(Math.max(power, 0));
  const denominator = parsed.digits * 10n ** BigInt(Math.max(-power, 0));
  return minorToDecimal((2n * numerator + denominator) / (2n * denominator), decimals);
}

/** The currency a rate is written for ("1 BTC ≈ …"): the crypto side, the one whose logo goes beside it. */
export const rateCurrency = (from: string, to: string): string => (from === 'EUR' ? to : from);
