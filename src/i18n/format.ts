import { decimalsOf } from '../../domain/currencies';
import { languageMeta, type Language } from '../../domain/languages';

/**
 * Numbers, money and dates always go through Intl for the page's language.
 * Amounts arrive as decimal strings (never floats): Intl formats a string exactly.
 *
 * Creating an Intl formatter costs far more than using one (on a slow phone, milliseconds each:
 * a page of fees or rates created dozens while it hydrated), so each language and set of options
 * gets one, kept for the page's life.
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
  if (options.style === 'currency' && !options.currencyDisplay) options = { ...options, currencyDisplay: 'narrowSymbol' };
  return cached('n', language, options, (locale) => new Intl.NumberFormat(locale, options));
}

export function dateTimeFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached('d', language, options, (locale) => new Intl.DateTimeFormat(locale, options));
}

export function listFormat(language: Language, options: Intl.ListFormatOptions): Intl.ListFormat {
  return cached('l', language, options, (locale) => new Intl.ListFormat(locale, options));
}

export function formatMoney(amount: string, currency: string, language: Language): string {
  const isFiat = currency === 'EUR';
  // Every digit the currency has (ether: 18, wei): an amount shown is the amount held, never rounded.
  const format = numberFormat(language, isFiat ? { style: 'currency', currency } : { maximumFractionDigits: decimalsOf(currency) ?? 9 });
  // Intl accepts decimal strings at run time; the cast only satisfies older lib typings.
  const formatted = format.format(amount as unknown as number);
  return isFiat ? formatted : `${formatted} ${currency}`;
}

export function formatNumber(value: number | bigint, language: Language): string {
  return numberFormat(language).format(value);
}

export function formatPercent(basisPoints: number, language: Language): string {
  return numberFormat(language, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(basisPoints / 10000);
}

export function formatDate(date: Date, language: Language): string {
  return dateTimeFormat(language, { dateStyle: 'long' }).format(date);
}
