import { knownDecimals, moneyDecimal } from './currencies';
import { languageMeta, type Language } from './languages';
import type { Money } from './money';

/**
 * The one place where amounts, numbers, IBANs and dates become text, for the site (through
 * src/i18n/format.ts) and the server's emails and API messages alike, so a page and the email
 * about it write the same amount the same way. Amounts arrive as decimal strings (never floats):
 * Intl formats a string exactly. `__tests__/formatters.test.ts` checks that no other file creates
 * an Intl.NumberFormat for money or groups an IBAN itself.
 *
 * Creating an Intl formatter costs far more than using one (on a slow phone, milliseconds each:
 * a page of fees or rates created dozens while it hydrated), so each language and set of options
 * gets one, kept for the process's (or the page's) life.
 */
const formatters = new Map<string, unknown>();

/** The formatter of `kind` for the language and options, created on first use. */
function cached<F>(kind: string, language: Language, options: object, create: (locale: string) => F): F {
  const key = `${kind}:${language}:${JSON.stringify(options)}`;
  let format = formatters.get(key) as F | undefined;
  if (!format) formatters.set(key, (format = create(languageMeta[language].intl)));
  return format;
}

export function numberFormat(language: Language, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  // The euro is "€" in every language (Intl's Ukrainian would write "EUR" where Russian writes "€").
  if (options.style === 'currency' && !options.currencyDisplay)
    options = { ...options, currencyDisplay: 'narrowSymbol' };
  return cached('n', language, options, (locale) => new Intl.NumberFormat(locale, options));
}

export function dateTimeFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached('d', language, options, (locale) => new Intl.DateTimeFormat(locale, options));
}

export function listFormat(language: Language, options: Intl.ListFormatOptions): Intl.ListFormat {
  return cached('l', language, options, (locale) => new Intl.ListFormat(locale, options));
}

/**
 * An amount for people: euros with "€" where the language puts it ("€80,441.23", "80.441,23 €"),
 * crypto with every digit the currency has (ether: 18; an amount shown is the amount held, never
 * rounded) and its code after it ("0.001 BTC").
 */
export function formatMoney(amount: string, currency: string, language: Language): string {
  const isFiat = currency === 'EUR';
  const format = numberFormat(
    language,
    isFiat ? { style: 'currency', currency } : { maximumFractionDigits: knownDecimals(currency) },
  );
  // Intl accepts decimal strings at run time; the cast only satisfies older lib typings.
  const formatted = format.format(amount as unknown as number);
  return isFiat ? formatted : `${formatted} ${currency}`;
}

/** An amount in minor units with its currency (a quote's), written as formatMoney writes it. */
export function formatMinor(money: Money, language: Language): string {
  return formatMoney(moneyDecimal(money), money.currency, language);
}

/**
 * A price in euros (a rate, "1 BTC ≈ €81,233.21"), written as every euro amount is, with as many
 * decimals as it needs: 2 for a bitcoin, up to 8 for a Shiba Inu (€0.00002100), so a small price
 * never shows as €0.00. A decimal string in (Intl rounds it exactly); the size only picks the digits.
 */
export function formatEurPrice(price: string, language: Language): string {
  const size = Number(price);
  const digits = size >= 1 ? 2 : size >= 0.01 ? 4 : 8;
  return numberFormat(language, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(price as unknown as number);
}

/**
 * An amount as a person pastes it into a banking app: the language's decimal separator, no
 * grouping, no currency ("80,00" in German).
 */
export function plainEurAmount(amount: string, language: Language): string {
  return numberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(
    amount as unknown as number,
  );
}

export function formatNumber(value: number | bigint, language: Language): string {
  return numberFormat(language).format(value);
}

/** A length of time in words, "30 days", "10 Minuten", "30 дней", as the sentence around it needs. */
export function formatDuration(count: number, unit: 'minute' | 'hour' | 'day', language: Language): string {
  return numberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(count);
}

export function formatPercent(basisPoints: number, language: Language): string {
  return numberFormat(language, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    basisPoints / 10000,
  );
}

/**
 * An IBAN as people read it, in groups of four ("DE89 3704 0044 0532 0130 00"), as ibantools'
 * friendlyFormatIBAN writes it (the formatters test compares the two). Not that library here:
 * its country rules would put about 9 KB gzipped into every page's first load for a grouping.
 */
export function formatIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1 ');
}

/** A day, in the one date style of the language ("28 November 2026", "28. November 2026", "28 ноября 2026 г."). */
export function formatDate(date: Date, language: Language, options: { utc?: boolean } = {}): string {
  return dateTimeFormat(language, { dateStyle: 'long', ...(options.utc ? { timeZone: 'UTC' } : {}) }).format(date);
}

/**
 * A moment: the day as formatDate writes it, and the time of day; `seconds` for the records
 * where they matter (the ops console, a proof's time), `utc` where the reader's time zone is not
 * known (an email): then it says "UTC".
 */
export function formatDateTime(
  date: Date,
  language: Language,
  options: { seconds?: boolean; utc?: boolean } = {},
): string {
  const text = dateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: options.seconds ? 'medium' : 'short',
    ...(options.utc ? { timeZone: 'UTC' } : {}),
  }).format(date);
  return options.utc ? `${text} UTC` : text;
}
