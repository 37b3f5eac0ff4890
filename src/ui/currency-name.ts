import * as React from 'react';
import { useTranslation } from 'react-i18next';
import type { Resources } from '../i18n/i18next';

type Named = keyof Resources['currencies']['names'];

/**
 * A currency's name in the page's language ("Bitcoin", "Биткоин", "Біткоїн"), from
 * locales/<lng>/currencies.json; the API's and domain/currencies.ts's English name (or the code)
 * when the page did not load the "currencies" namespace. Pages that show names query it.
 */
export function useCurrencyName(): (code: string, english?: string) => string {
  const { t } = useTranslation('currencies');
  return React.useCallback(
    (code: string, english?: string) => t(`names.${code as Named}`, { defaultValue: english ?? code }),
    [t],
  );
}
