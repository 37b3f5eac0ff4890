import { navigate } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '#domain/languages';
import { loginLanding } from '#domain/return-to';
import { useSession } from '../../../app/session';
import { rememberSession } from '../../../app/session-provider';
import { routes } from '../../../i18n/routes';
import { usePageLanguage } from '../../../ui/localized-link';

/**
 * The login page: it receives the provider's redirect (the SDK finishes the login and sends the
 * user back to where they came from) and otherwise starts a login at once. Login returns the
 * user to the page they came from (the header's link records it in ?returnTo=), or — none
 * recorded, or the home page — to their own home, the wallet's page (issue 35: `loginLanding`).
 */
export function LoginFlow({ signup = false }: { signup?: boolean }) {
  const { t } = useTranslation('auth');
  const language = usePageLanguage();
  const session = useSession();
  const { status, loginWithRedirect } = session;
  const error = session.status === 'anonymous' ? session.error : undefined;
  const params = new URLSearchParams(window.location.search);
  const isCallback = params.has('code') && params.has('state');
  const returnTo = loginLanding(params.get('returnTo'), window.location.origin, localizePath(routes.wallet, language));
  const start = React.useCallback(
    () =>
      loginWithRedirect({
        appState: { returnTo },
        authorizationParams: signup ? { screen_hint: 'signup' } : {},
      }),
    [loginWithRedirect, returnTo, signup],
  );

  React.useEffect(() => {
    if (status === 'unknown' || isCallback || error) return;
    if (status === 'signed-in') void navigate(returnTo, { replace: true });
    else void start();
  }, [status, isCallback, error, returnTo, start]);

  if (error) {
    return (
      <>
        <p role="alert">{t('session.failed')}</p>
        <button type="button" className="button primary" onClick={() => void start()}>
          {signup ? t('session.signupButton') : t('session.loginButton')}
        </button>
      </>
    );
  }
  return <p className="muted">{isCallback ? t('session.loggingIn') : t('session.redirecting')}</p>;
}

/** The logout page: ends the session here and at the provider, then returns to the home page. */
export function LogoutFlow() {
  const { t } = useTranslation('auth');
  const language = usePageLanguage();
  const { logout, status } = useSession();
  React.useEffect(() => {
    if (status === 'unknown') return;
    rememberSession({ status: 'anonymous' });
    void logout({ logoutParams: { returnTo: `${window.location.origin}${localizePath('/', language)}` } });
  }, [logout, language, status]);
  return <p className="muted">{t('session.loggingOut')}</p>;
}
