import * as React from 'react';
import { errorKeyOf, useErrorText } from '../../../components/error-text';
import { usePageLanguage } from '../../../components/localized-link';
import { useSession } from '../../../components/session';

/** The access token and page language every wallet call needs, and the text for what went wrong in a call. */
export function useWalletApi() {
  const { getAccessTokenSilently } = useSession();
  const language = usePageLanguage();
  const token = React.useCallback(async () => String(await getAccessTokenSilently()), [getAccessTokenSilently]);
  const text = useErrorText();
  const errorText = React.useCallback((error: unknown) => text(errorKeyOf(error)), [text]);
  return { token, language, errorText };
}
