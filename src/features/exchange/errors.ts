import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { usePageLanguage } from '../../components/localized-link';
import { ApiFailure } from '../../components/api';
import { formatMoney } from '../../i18n/format';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../../domain/limits';
import { eur } from '../../../domain/money';

/**
 * The localized text of an error code (the API's `error.code` or a form rule's code), from
 * `exchange:errors`. Limits are rendered from domain/limits, so text and rule cannot drift.
 * An unknown code shows the generic text.
 */
export type ErrorValues = { decimals?: number; currency?: string };

export const codeOf = (error: unknown) => (error instanceof ApiFailure ? error.code : 'generic');

export function useErrorText() {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  return React.useCallback(
    (code: string | undefined, values: ErrorValues = {}) =>
      code
        ? t(`errors.${code}` as 'errors.generic', {
            defaultValue: t('errors.generic'),
            limit: formatMoney(eur(code === 'order_limit' ? ORDER_LIMIT_EUR_MINOR : FIRST_ORDER_LIMIT_EUR_MINOR), 'EUR', language),
            decimals: values.decimals ?? 0,
            currency: values.currency ?? '',
          })
        : undefined,
    [t, language],
  );
}
