import { dateTimeFormat, formatEurPrice } from '../../i18n/format';
import type { Language } from '#domain/languages';

/**
 * A EUR rate with as many decimals as it needs: 2 for a bitcoin, up to 8 for a Shiba Inu
 * (0.000021 EUR), so small rates never show as 0.00. Decimal strings in, Intl out.
 */
export const formatRate = (rate: string, language: Language): string => formatEurPrice(rate, language);

export function formatTime(date: Date, language: Language): string {
  return dateTimeFormat(language, { timeStyle: 'medium' }).format(date);
}
