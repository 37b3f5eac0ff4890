import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '../../domain/languages';
import { routes } from '../i18n/routes';
import { usePageLanguage } from './localized-link';
import { readSessionHint, type SessionHint } from './session-hint';

/**
 * The header's login state, without the login SDK: "Log in" (which brings the visitor back to
 * this page) or the user's name and "Log out", from the hint the SDK pages leave.
 */
export function HeaderUser({ pathname }: { pathname: string }) {
  const { t } = useTranslation('common');
  const language = usePageLanguage();
  const [session, setSession] = React.useState<SessionHint | null>(null);
  React.useEffect(() => {
    const update = () => setSession(readSessionHint());
    update();
    window.addEventListener('muntly:session', update);
    window.addEventListener('storage', update);
    return () => {
      window.removeEventListener('muntly:session', update);
      window.removeEventListener('storage', update);
    };
  }, []);

  if (session) {
    return (
      <span className="header-user">
        <span className="user-name">{session.name}</span>{' '}
        <Link to={localizePath(routes.logout, language)} className="button small">
          {t('nav.logout')}
        </Link>
      </span>
    );
  }
  // The page is in the server-rendered link already: a click before hydration comes back too.
  const login = `${localizePath(routes.login, language)}?returnTo=${encodeURIComponent(pathname)}`;
  return (
    <Link to={login} className="button small">
      {t('nav.login')}
    </Link>
  );
}
