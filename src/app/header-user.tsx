import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '#domain/languages';
import { routes } from '../i18n/routes';
import { usePageLanguage } from '../ui/localized-link';

/** The account pages a logged-in user reaches from the header's menu (on a phone, where the name is hidden). */
export const accountNav = [
  'wallet',
  'wallet_balances',
  'wallet_send',
  'wallet_receive',
  'my_identity',
  'wallet_security',
] as const;

/**
 * The header's login state: the name of who is logged in, as the header's useSessionState() gives
 * it without the login SDK (null: nobody, and until hydration). "Log in" (which brings the visitor
 * back to this page) or the user's name, a link to their own home, and "Log out". On a phone and
 * tablet the menu lists the account's pages (`accountNav`), and the name leaves a phone's narrow
 * line.
 */
export function HeaderUser({ pathname, name }: { pathname: string; name: string | null }) {
  const { t } = useTranslation('common');
  const language = usePageLanguage();

  if (name !== null) {
    return (
      <span className="header-user">
        <Link to={localizePath(routes.wallet, language)} className="user-home" title={t('nav.myAccount')}>
          {name}
        </Link>{' '}
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
