import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { FEES } from '../../domain/fees';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ID_VERIFICATION_WEEKLY_EUR_MINOR, MOBILE_VERIFICATION_WEEKLY_EUR_MINOR, ORDER_LIMIT_EUR_MINOR, UNUSED_ADDRESSES_PER_CURRENCY } from '../../domain/limits';
import { eur } from '../../domain/money';
import { formatMoney } from '../i18n/format';
import { ApiFailure } from './api';
import { usePageLanguage } from './localized-link';
import type { ErrorCode } from '../../domain/errors';
import type { FailureReason } from '../../domain/orders';

/**
 * Every error text of the site comes from one namespace, locales/<lng>/errors.json, whose keys
 * are the API's error codes (domain/errors.ts), the reasons an order failed, and the site's own
 * few below. ErrorTextKey names them all, so a misspelt code does not compile. Pages that show an
 * error text query the "errors" namespace; __tests__/error-texts.test.ts checks both.
 */

/** Keys only the site uses: a call that got no answer from the API, two form rules, and a limit's wait. */
export const SITE_ERROR_KEYS = ['generic', 'too_many_decimals', 'same_currency', 'try_again_in'] as const;
export type ErrorTextKey = ErrorCode | FailureReason | (typeof SITE_ERROR_KEYS)[number];

/** Values some texts need: a currency and its decimals (too_many_decimals). */
export type ErrorTextValues = { currency?: string; decimals?: number; retryAfter?: number };

/** A limit's wait ("in 45 seconds", "через 2 минуты"), in the page's language, in the largest whole unit. */
export function waitPhrase(seconds: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
  if (seconds < 90) return format.format(Math.ceil(seconds), 'second');
  if (seconds < 90 * 60) return format.format(Math.ceil(seconds / 60), 'minute');
  return format.format(Math.ceil(seconds / 3600), 'hour');
}

/** What went wrong in a call: the API's code, or generic when there was no answer from it. */
export const errorKeyOf = (error: unknown): ErrorCode | 'generic' => (error instanceof ApiFailure ? error.code : 'generic');

/**
 * A form field's message as a key: the forms' schemas (domain/, the order form) and their
 * handlers give error codes as messages. An unknown one shows the generic text.
 */
export const formErrorKey = (message: string | undefined): ErrorTextKey | undefined => message as ErrorTextKey | undefined;

/** A key's text; no key (a field without error), no text. */
export type ErrorText = {
  (key: ErrorTextKey, values?: ErrorTextValues): string;
  (key: ErrorTextKey | undefined, values?: ErrorTextValues): string | undefined;
};

/** The limit a text states ({{limit}}); texts without their own state the first-order cap. */
const LIMIT_OF: Partial<Record<ErrorTextKey, bigint>> = {
  order_limit: ORDER_LIMIT_EUR_MINOR,
  mobile_verification_required: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  weekly_limit_login_required: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  id_verification_required: ID_VERIFICATION_WEEKLY_EUR_MINOR,
  amount_below_minimum_fee: FEES.buy.minimumEurMinor,
};

/** The text for a key in the page language; limits are rendered from domain/limits, so text and rule cannot drift. */
export function useErrorText(): ErrorText {
  const { t } = useTranslation('errors');
  const language = usePageLanguage();
  return React.useCallback(
    (key: ErrorTextKey | undefined, values: ErrorTextValues = {}) =>
      key === undefined
        ? undefined
        : t(key === 'try_again_soon' && values.retryAfter ? 'try_again_in' : key, {
            when: values.retryAfter ? waitPhrase(values.retryAfter, language) : '',
            defaultValue: t('generic'),
            limit: formatMoney(eur(LIMIT_OF[key] ?? FIRST_ORDER_LIMIT_EUR_MINOR), 'EUR', language),
            idLimit: formatMoney(eur(ID_VERIFICATION_WEEKLY_EUR_MINOR), 'EUR', language),
            addresses: UNUSED_ADDRESSES_PER_CURRENCY,
            decimals: values.decimals ?? 0,
            currency: values.currency ?? '',
          }),
    [t, language],
  ) as ErrorText;
}
