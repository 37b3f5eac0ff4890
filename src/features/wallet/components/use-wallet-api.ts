import * as React from 'react';
import { useAuth0 } from '@auth0/auth0-react';
import { useTranslation } from 'react-i18next';
import { usePageLanguage } from '../../../components/localized-link';
import { ApiFailure } from '../../../components/api';

/** The access token and page language every wallet call needs, and the text for an error. */
export function useWalletApi() {
  const { getAccessTokenSilently } = useAuth0();
  const language = usePageLanguage();
  const { t } = useTranslation('wallet');
  const token = React.useCallback(async () => String(await getAccessTokenSilently()), [getAccessTokenSilently]);
  const errorText = React.useCallback(
    (error: unknown) => t(`errors.${error instanceof ApiFailure ? error.code : 'generic'}` as 'errors.generic', { defaultValue: t('errors.generic') }),
    [t],
  );
  return { token, language, errorText };
}
