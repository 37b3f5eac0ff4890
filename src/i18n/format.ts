import { languageMeta, type Language } from './languages';

/**
 * Numbers, money and dates always go through Intl for the page's language.
 * Amounts arrive as decimal strings (never floats): Intl formats a string exactly.
 */
export function formatMoney(amount: string, currency: string, language: Language): string {
  const isFiat = currency === 'EUR';
  const format = new Intl.NumberFormat(languageMeta[language].intl, {
    ...(isFiat ? { style: 'currency', currency } : { maximumFractionDigits: 9 }),
  });
  // Intl accepts decimal strings at run time; the cast only satisfies older lib typings.
  const formatted = format.format(amount as unknown as number);
  return isFiat ? formatted : `${formatted} ${currency}`;
}

export function formatNumber(value: number | bigint, language: Language): string {
  return new Intl.NumberFormat(languageMeta[language].intl).format(value);
}

export function formatPercent(basisPoints: number, language: Language): string {
  return new Intl.NumberFormat(languageMeta[language].intl, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(basisPoints / 10000);
}

export function formatDate(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(languageMeta[language].intl, { dateStyle: 'long' }).format(date);
}
