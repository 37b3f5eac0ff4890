import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { headerNav } from '../i18n/routes';
import { LanguageSwitch } from '../ui/language-switch';
import { LocalizedLink } from '../ui/localized-link';
import { accountNav, HeaderUser } from './header-user';
import { displayName, useSessionState } from './session';

/**
 * On a wide screen: the brand, the navigation, the login and the language on one line. On a
 * phone: the brand, the login, the language and a menu button (a disclosure) that shows the
 * navigation below — and, logged in, the user's own pages (issue 35) — and the menu closes on a
 * new page and with Escape. The keyboard meets the navigation (or the menu button) before "Log in"
 * and the language: the page's own places first, the tools after them; CSS puts them where the
 * eye expects them.
 */
export function Header({ pathname }: { pathname: string }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = React.useState(false);
  const session = useSessionState();
  const name = session.status === 'signed-in' ? displayName(session.user) : null;
  React.useEffect(() => setOpen(false), [pathname]);
  React.useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <header className="site-header">
      <div className="container header-row">
        <LocalizedLink to="home" className="brand" aria-label={t('a11y.homeLink')}>
          <img src="/logo.svg" alt="" width={32} height={32} />
          <span>{t('site.name')}</span>
        </LocalizedLink>
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen(!open)}
        >
          <span className="menu-icon" aria-hidden="true" />
          <span className="menu-label">{t('nav.menu')}</span>
        </button>
        <nav id="main-nav" aria-label={t('a11y.mainNavigation')} className={open ? 'main-nav open' : 'main-nav'}>
          <ul>
            {headerNav.map((name) => (
              <li key={name}>
                <LocalizedLink to={name} activeClassName="active" partiallyActive={name !== 'home'}>
                  {t(`pages.${name}.nav`)}
                </LocalizedLink>
              </li>
            ))}
          </ul>
          {name !== null ? (
            <ul className="nav-account" aria-label={t('nav.myAccount')}>
              {accountNav.map((name) => (
                <li key={name}>
                  <LocalizedLink to={name} activeClassName="active">
                    {name === 'wallet' ? t('nav.myAccount') : t(`pages.${name}.title`)}
                  </LocalizedLink>
                </li>
              ))}
              <li>
                <LocalizedLink to="logout">{t('nav.logout')}</LocalizedLink>
              </li>
            </ul>
          ) : null}
        </nav>
        <div className="header-tools">
          <HeaderUser pathname={pathname} name={name} />
          <LanguageSwitch pathname={pathname} />
        </div>
      </div>
    </header>
  );
}
