import { errorTextNumbers, waitPhrase, type ErrorCode } from '#domain/errors';
import { formatMoney } from '#domain/format';
import { eur } from '#domain/money';
import englishTexts from '../../locales/en/errors.json';

/**
 * The API's English message for an error code: the site's English text for it
 * (locales/en/errors.json), with the same numbers filled in as the site fills in
 * (domain/errors.ts errorTextNumbers), money formatted as the English pages format it (Intl,
 * en-GB, from the decimal string: exact, never a float). One text per code, so the API and the
 * page cannot drift; __tests__/api-error-messages.test.tsx checks every code.
 */
const inEur = (minor: bigint) => formatMoney(eur(minor), 'EUR', 'en');

export function apiMessage(code: ErrorCode, retryAfter?: number): string {
  const numbers = errorTextNumbers(code);
  const values: Record<string, string> = {
    limit: inEur(numbers.limit),
    idLimit: inEur(numbers.idLimit),
    addresses: String(numbers.addresses),
    when: retryAfter ? waitPhrase(retryAfter, 'en') : 'later',
  };
  return englishTexts[code].replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}
