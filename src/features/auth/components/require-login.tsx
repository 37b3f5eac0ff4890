import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session';

/**
 * A protected island: an anonymous visitor is sent to log in and comes back to this very page
 * (same path, so the same language).
 */
export function RequireLogin({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation('auth');
  const session = useSession();
  const { status, loginWithRedirect } = session;
  const error = session.status === 'anonymous' ? session.error : undefined;
  React.useEffect(() => {
    if (status === 'anonymous' && !error) {
      void loginWithRedirect({ appState: { returnTo: window.location.pathname + window.location.search } });
    }
  }, [status, error, loginWithRedirect]);

  if (error) return <p role="alert">{t('session.failed')}</p>;
  if (status === 'unknown') return <p className="muted">{t('session.checking')}</p>;
  if (status === 'anonymous') return <p className="muted">{t('session.redirecting')}</p>;
  return <>{children}</>;
}
