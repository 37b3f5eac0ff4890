import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { errorTextNumbers, waitPhrase } from '#domain/error-text-numbers';
import { eur } from '#domain/money';
import { formatMoney } from '../i18n/format';
import { usePageLanguage } from '../ui/localized-link';
import { ApiFailure } from './api';
import type { ErrorCode } from '#domain/errors';
import type { FailureReason } from '#domain/orders';

/**
 * Every error text of the site comes from one namespace, locales/<lng>/errors.json, whose keys
 * are the API's error codes (domain/errors.ts), the reasons an order failed, and the site's own
 * few below. ErrorTextKey names them all, so a misspelt code does not compile. Pages that show an
 * error text query the "errors" namespace; __tests__/error-texts.test.ts checks both.
 */

/** Keys only the site uses: a call that got no answer from the API, two form rules, and a limit's wait. */
export const SITE_ERROR_KEYS = [
  'generic',
  'too_many_decimals',
  'same_currency',
  'try_again_in',
  'login_required_business',
] as const;
export type ErrorTextKey = ErrorCode | FailureReason | (typeof SITE_ERROR_KEYS)[number];

/** Values some texts need: a currency and its decimals (too_many_decimals). */
export type ErrorTextValues = { currency?: string; decimals?: number; retryAfter?: number };

/** A limit's wait in a language ({{when}}): domain/errors.ts, shared with the API's messages. */
export { waitPhrase } from '#domain/error-text-numbers';

/** What went wrong in a call: the API's code, or generic when there was no answer from it. */
export const errorKeyOf = (error: unknown): ErrorCode | 'generic' =>
  error instanceof ApiFailure ? error.code : 'generic';

/**
 * A form field's message as a key: the forms' schemas (domain/, the order form) and their
 * handlers give error codes as messages. An unknown one shows the generic text.
 */
export const formErrorKey = (message: string | undefined): ErrorTextKey | undefined =>
  message as ErrorTextKey | undefined;

/** A key's text; no key (a field without error), no text. */
export type ErrorText = {
  (key: ErrorTextKey, values?: ErrorTextValues): string;
  (key: ErrorTextKey | undefined, values?: ErrorTextValues): string | undefined;
};

/** The text for a key in the page language; numbers come from domain/error-text-numbers.ts errorTextNumbers (as in the API's message), so text and rule cannot drift. */
export function useErrorText(): ErrorText {
  const { t } = useTranslation('errors');
  const language = usePageLanguage();
  return React.useCallback(
    (key: ErrorTextKey | undefined, values: ErrorTextValues = {}) => {
      if (key === undefined) return undefined;
      const numbers = errorTextNumbers(key);
      return t(key === 'try_again_soon' && values.retryAfter ? 'try_again_in' : key, {
        when: values.retryAfter ? waitPhrase(values.retryAfter, language) : '',
        defaultValue: t('generic'),
        limit: formatMoney(eur(numbers.limit), 'EUR', language),
        idLimit: formatMoney(eur(numbers.idLimit), 'EUR', language),
        addresses: numbers.addresses,
        decimals: values.decimals ?? 0,
        currency: values.currency ?? '',
      });
    },
    [t, language],
  ) as ErrorText;
}
