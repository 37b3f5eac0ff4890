import * as React from 'react';
import { errorKeyOf, useErrorText } from '../../../app/error-text';
import { useSession } from '../../../app/session';
import { usePageLanguage } from '../../../ui/localized-link';
import { getBankVerification, type BankVerification } from '../api/wallet';

/** The access token and page language every wallet call needs, and the text for what went wrong in a call. */
export function useWalletApi() {
  const { getAccessTokenSilently } = useSession();
  const language = usePageLanguage();
  const token = React.useCallback(async () => String(await getAccessTokenSilently()), [getAccessTokenSilently]);
  const text = useErrorText();
  const errorText = React.useCallback((error: unknown) => text(errorKeyOf(error)), [text]);
  return { token, language, errorText };
}

/**
 * The bank verification of the logged-in user, asked once per page: undefined while it is asked,
 * null when the answer could not be had (the page then says what it can without it).
 */
export function useBankVerification(): BankVerification | null | undefined {
  const { token, language } = useWalletApi();
  const [bank, setBank] = React.useState<BankVerification | null | undefined>(undefined);
  React.useEffect(() => {
    let live = true;
    void token()
      .then((value) => getBankVerification(value, language))
      .then(
        (answer) => live && setBank(answer),
        () => live && setBank(null),
      );
    return () => {
      live = false;
    };
  }, [token, language]);
  return bank;
}
