import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { headerNav } from '../i18n/routes';
import { HeaderUser } from './header-user';
import { LanguageSwitch } from './language-switch';
import { LocalizedLink } from './localized-link';

export function Header({ pathname }: { pathname: string }) {
  const { t } = useTranslation('common');
  return (
    <header className="site-header">
      <div className="container header-row">
        <LocalizedLink to="home" className="brand" aria-label={t('a11y.homeLink')}>
          <img src="/logo.svg" alt="" width={32} height={32} />
          <span>{t('site.name')}</span>
        </LocalizedLink>
        <nav aria-label={t('a11y.mainNavigation')} className="main-nav">
          <ul>
            {headerNav.map((name) => (
              <li key={name}>
                <LocalizedLink to={name} activeClassName="active" partiallyActive={name !== 'home'}>
                  {t(`pages.${name}.nav`)}
                </LocalizedLink>
              </li>
            ))}
            <li>
              <HeaderUser pathname={pathname} />
            </li>
          </ul>
        </nav>
        <LanguageSwitch pathname={pathname} />
      </div>
    </header>
  );
}
