import Big from 'big.js';
import { formatDateTime as formatMoment, formatEurPrice, formatMoney, numberFormat, plainEurAmount } from '../../i18n/format';
import type { Language } from '../../../domain/languages';

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
  if (from === 'EUR' && new Big(rate).gt(0)) {
    return `1 ${to} ≈ ${formatEurPrice(new Big(1).div(new Big(rate)).toString(), language)}`;
  }
  // A price in euros is written as every euro amount is ("1 BTC ≈ €81,233.21"), never "81,233.206 EUR".
  if (to === 'EUR') return `1 ${from} ≈ ${formatEurPrice(rate, language)}`;
  return `1 ${from} ≈ ${formatRate(rate, language)} ${to}`;
}

/** The currency a rate is written for ("1 BTC ≈ …"): the crypto side, the one whose logo goes beside it. */
export const rateCurrency = (from: string, to: string): string => (from === 'EUR' ? to : from);
